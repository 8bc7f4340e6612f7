-- Function lis_swap_in_table, as the migrations leave it (written by `npm run sql:functions`; change it in a migration).

CREATE OR REPLACE FUNCTION public.lis_swap_in_table(live regclass, next regclass)
 RETURNS void
 LANGUAGE plpgsql
AS $function$
DECLARE
  live_name text;
  schema_name text;
  names text[] := '{}';
  built text[] := '{}';
  i record;
  g record;
  p record;
BEGIN
  SELECT c.relname, n.nspname INTO live_name, schema_name
  FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE c.oid = live;
  IF EXISTS (SELECT 1 FROM pg_constraint WHERE conrelid = live AND conindid <> 0) THEN
    RAISE EXCEPTION 'lis_swap_in_table: % has an index that backs a constraint', live;
  END IF;
  FOR i IN SELECT c.relname AS name, x.indisunique AS is_unique, pg_get_indexdef(x.indexrelid) AS def
           FROM pg_index x JOIN pg_class c ON c.oid = x.indexrelid WHERE x.indrelid = live ORDER BY c.relname LOOP
    names := names || i.name;
    built := built || (live_name || '_swap_' || cardinality(names));
    EXECUTE format('CREATE %sINDEX %I ON %s %s', CASE WHEN i.is_unique THEN 'UNIQUE ' ELSE '' END,
                   built[cardinality(built)], next, substring(i.def FROM ' USING .*$'));
  END LOOP;
  FOR g IN SELECT a.grantee, a.privilege_type, a.is_grantable
           FROM pg_class c CROSS JOIN LATERAL aclexplode(c.relacl) a
           WHERE c.oid = live AND a.grantee <> c.relowner LOOP
    EXECUTE format('GRANT %s ON %s TO %s%s', g.privilege_type, next,
                   CASE WHEN g.grantee = 0 THEN 'PUBLIC' ELSE g.grantee::regrole::text END,
                   CASE WHEN g.is_grantable THEN ' WITH GRANT OPTION' ELSE '' END);
  END LOOP;
  IF EXISTS (SELECT 1 FROM pg_partitioned_table WHERE partrelid = next) THEN
    FOR p IN SELECT relid FROM pg_partition_tree(next) WHERE isleaf LOOP
      EXECUTE format('ANALYZE %s', p.relid::regclass);
    END LOOP;
  ELSE
    EXECUTE format('ANALYZE %s', next);
  END IF;
  EXECUTE format('DROP TABLE %s', live);
  EXECUTE format('ALTER TABLE %s RENAME TO %I', next, live_name);
  FOR k IN 1..cardinality(names) LOOP
    EXECUTE format('ALTER INDEX %I.%I RENAME TO %I', schema_name, built[k], names[k]);
  END LOOP;
END $function$;
