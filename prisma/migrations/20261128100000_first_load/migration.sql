-- A first load: an import into an empty catalogue writes its batches without the catalogue's
-- secondary indexes, and builds them once when it ends (PostgreSQL's "Populating a
-- Database": an index built over the loaded rows costs less than keeping it row by row). The 1M bench
-- import's batches took 26.5 s instead of ~48 s; building the indexes afterwards ~10 s on two
-- connections. The triggers stay: the vocabulary is counted as the rows come (a recount at the end
-- cost as much as it saved). The row below says a first load is under way and what it set aside, so
-- that whoever ends it (the load itself, or after a crash the next import or server start) puts back
-- exactly that. The primary key and unique indexes stay: the upsert needs them.
CREATE TABLE "imagery_first_load" (
  "id" BOOLEAN PRIMARY KEY DEFAULT true CHECK ("id"),
  "started_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
  -- CREATE INDEX IF NOT EXISTS statements of the indexes dropped (pg_get_indexdef), GIN and GiST first:
  -- the costliest builds start first when several connections share them.
  "indexes" TEXT[] NOT NULL
);

-- Starts a first load when the catalogue is empty and no load is under way: returns whether it did.
-- Never waits: a catalogue in use (a lock it cannot take at once) or a role that does not own the
-- table (DDL needs the owner) just imports the usual way.
CREATE FUNCTION "lis_begin_first_load"() RETURNS BOOLEAN
  LANGUAGE plpgsql AS $$
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
END $$;
