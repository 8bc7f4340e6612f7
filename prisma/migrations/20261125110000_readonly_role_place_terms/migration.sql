-- Searches read the place term lists (the places a query names). A read-only role made by
-- `npm run db:create-readonly-role` before those tables existed could not read them, and its
-- searches failed: every role that may read imagery without owning it (or being a superuser or a
-- predefined pg_ role) may now read them too. Later runs of the command grant them as well.
DO $$
DECLARE
  r RECORD;
  owner OID := (SELECT c.relowner FROM pg_class c WHERE c.oid = 'imagery'::regclass);
BEGIN
  FOR r IN
    SELECT a.rolname FROM pg_roles a
    WHERE has_table_privilege(a.oid, 'imagery', 'SELECT') AND NOT a.rolsuper
      AND a.rolname NOT LIKE 'pg\_%' AND NOT pg_has_role(a.oid, owner, 'MEMBER')
  LOOP
    EXECUTE format('GRANT SELECT ON place_term_lists, place_term_ranks TO %I', r.rolname);
  END LOOP;
END $$;
