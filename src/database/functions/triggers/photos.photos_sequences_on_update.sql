-- Trigger photos_sequences_on_update on photos, as the migrations leave it (written by `npm run sql:functions`; change it in a migration).

CREATE TRIGGER photos_sequences_on_update AFTER UPDATE ON photos REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION lis_note_sequences_touched();
