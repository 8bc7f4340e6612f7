-- Function lis_begin_first_load, as the migrations leave it (written by `npm run sql:functions`; change it in a migration).

CREATE OR REPLACE FUNCTION public.lis_begin_first_load()
 RETURNS boolean
 LANGUAGE plpgsql
AS $function$
DECLARE
  names TEXT[];
  definitions TEXT[];
  name TEXT;
BEGIN
  LOCK TABLE "imagery" IN ACCESS EXCLUSIVE MODE NOWAIT;
  IF EXISTS (SELECT 1 FROM "imagery") OR EXISTS (SELECT 1 FROM "imagery_first_load") THEN
    RETURN false;
  END IF;
  SELECT coalesce(array_agg(format('%I', c.relname) ORDER BY a.amname = 'btree', c.relname), '{}'),
         coalesce(array_agg(regexp_replace(pg_get_indexdef(x.indexrelid), '^CREATE INDEX ', 'CREATE INDEX IF NOT EXISTS ')
                            ORDER BY a.amname = 'btree', c.relname), '{}')
  INTO names, definitions
  FROM pg_index x JOIN pg_class c ON c.oid = x.indexrelid JOIN pg_am a ON a.oid = c.relam
  WHERE x.indrelid = 'imagery'::regclass AND NOT x.indisunique AND NOT x.indisprimary;
  INSERT INTO "imagery_first_load" ("indexes") VALUES (definitions);
  FOREACH name IN ARRAY names LOOP
    EXECUTE format('DROP INDEX %s', name);
  END LOOP;
  RETURN true;
EXCEPTION WHEN lock_not_available OR insufficient_privilege THEN
  RETURN false;
END $function$;
