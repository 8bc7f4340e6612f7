-- Trigger imagery_coverage_on_truncate on imagery, as the migrations leave it (written by `npm run sql:functions`; change it in a migration).

CREATE TRIGGER imagery_coverage_on_truncate AFTER TRUNCATE ON imagery FOR EACH STATEMENT EXECUTE FUNCTION lis_note_coverage_touched();
