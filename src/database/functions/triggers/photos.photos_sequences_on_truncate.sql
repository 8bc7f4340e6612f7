-- Trigger photos_sequences_on_truncate on photos, as the migrations leave it (written by `npm run sql:functions`; change it in a migration).

CREATE TRIGGER photos_sequences_on_truncate AFTER TRUNCATE ON photos FOR EACH STATEMENT EXECUTE FUNCTION lis_note_sequences_touched();
