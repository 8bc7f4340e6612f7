-- Trigger imagery_coverage_on_delete on imagery, as the migrations leave it (written by `npm run sql:functions`; change it in a migration).

CREATE TRIGGER imagery_coverage_on_delete AFTER DELETE ON imagery REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION lis_note_coverage_touched();
