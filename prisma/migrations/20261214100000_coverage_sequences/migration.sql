-- Coverage by sequence: the tiles' `sequences` layer draws each sequence of photos as one line (its
-- images in capture order) at the zooms where points are too dense (docs/map-tiles.md). The lines are
-- kept here, in EPSG:3857 as the other map tables, so that a tile reads them through a GiST index on
-- its box instead of grouping photos per request; they are refreshed where the coverage cells are, after
-- every import (lis_update_coverage: the sequences touched; lis_refresh_coverage: all of them).
CREATE TABLE coverage_sequences (
  sequence_id uuid PRIMARY KEY,
  -- Its images' points in capture order (sequence_index, then id), consecutive repeats left out.
  geom geometry(LineString, 3857) NOT NULL,
  count int NOT NULL,
  -- Its newest image's date (the layer's `date`, for styling as the coverage points are).
  captured_at date NOT NULL,
  -- Whether its images are 360 (a sequence is one camera's: any of them stands for all).
  interactive boolean NOT NULL
);
CREATE INDEX coverage_sequences_geom_idx ON coverage_sequences USING gist (geom);

-- The sequences whose photos changed since the last refresh, noted by statement triggers on photos in
-- the writers' own transactions (a row without an id: every sequence, after a TRUNCATE or during a first
-- load). Moves, re-dated and deleted images that leave their photos as they were are found from the
-- locations in coverage_touched instead.
CREATE TABLE coverage_sequences_touched (sequence_id uuid);

-- One line per sequence from its photos and their imagery records; a sequence of one image, or of
-- images all at one spot, has none (its points are drawn). A filter on sequence_id reaches the photos'
-- index through the grouping.
CREATE VIEW coverage_sequence_lines AS
SELECT l.sequence_id, l.geom, l.count, l.captured_at, l.interactive
FROM (SELECT p.sequence_id,
             ST_RemoveRepeatedPoints(ST_MakeLine(ST_Transform(i.location, 3857) ORDER BY p.sequence_index, p.id)) AS geom,
             count(*)::int AS count, max(i.captured_at) AS captured_at, bool_or(i.interactive) AS interactive
      FROM photos p JOIN imagery i ON i.id = p.id
      GROUP BY p.sequence_id) l
WHERE ST_NPoints(l.geom) >= 2;

-- Writes the lines of the sequences given (NULL: every sequence) in place of their old ones; returns the
-- lines written. Tiles drawn meanwhile read the old lines until the refresh commits.
CREATE OR REPLACE FUNCTION "lis_write_coverage_sequences"(sequences uuid[]) RETURNS bigint
  LANGUAGE plpgsql AS $$
DECLARE
  written bigint;
BEGIN
  IF sequences IS NULL THEN
    DELETE FROM coverage_sequences;
    INSERT INTO coverage_sequences (sequence_id, geom, count, captured_at, interactive)
    SELECT sequence_id, geom, count, captured_at, interactive FROM coverage_sequence_lines;
  ELSE
    DELETE FROM coverage_sequences WHERE sequence_id = ANY(sequences);
    INSERT INTO coverage_sequences (sequence_id, geom, count, captured_at, interactive)
    SELECT sequence_id, geom, count, captured_at, interactive FROM coverage_sequence_lines
    WHERE sequence_id = ANY(sequences);
  END IF;
  GET DIAGNOSTICS written = ROW_COUNT;
  RETURN written;
END $$;

-- The incremental refresh's sequences (called by lis_update_coverage, which took what was touched into
-- coverage_touched_now and coverage_sequences_touched_now): those whose photos changed, those with an
-- image at a location touched (a new, moved or re-dated image), and those whose old line passes a
-- location touched (an image moved away or deleted without its photo). The built-in database rewrites
-- every line: its PostGIS fails to estimate the joins on `&&` (as in lis_update_coverage).
CREATE OR REPLACE FUNCTION "lis_update_coverage_sequences"() RETURNS bigint
  LANGUAGE plpgsql AS $$
BEGIN
  IF version() LIKE '%PGlite%' OR EXISTS (SELECT 1 FROM coverage_sequences_touched_now WHERE sequence_id IS NULL) THEN
    RETURN lis_write_coverage_sequences(NULL);
  END IF;
  RETURN lis_write_coverage_sequences(ARRAY(
    SELECT t.sequence_id FROM coverage_sequences_touched_now t
    UNION
    SELECT p.sequence_id
    FROM coverage_touched_now t
    CROSS JOIN LATERAL (SELECT m.id FROM imagery m WHERE m.location && t.location) i
    JOIN photos p ON p.id = i.id
    WHERE t.location IS NOT NULL
    UNION
    SELECT s.sequence_id
    FROM coverage_touched_now t
    CROSS JOIN LATERAL (SELECT c.sequence_id FROM coverage_sequences c
                        WHERE c.geom && ST_Expand(ST_Transform(t.location, 3857), 1)) s
    WHERE t.location IS NOT NULL));
END $$;

CREATE OR REPLACE FUNCTION "lis_note_sequences_touched"() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'TRUNCATE' OR EXISTS (SELECT 1 FROM "imagery_first_load") THEN
    INSERT INTO "coverage_sequences_touched" ("sequence_id") VALUES (NULL);
  ELSIF TG_OP = 'INSERT' THEN
    INSERT INTO "coverage_sequences_touched" ("sequence_id") SELECT DISTINCT r."sequence_id" FROM new_rows r;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO "coverage_sequences_touched" ("sequence_id") SELECT DISTINCT o."sequence_id" FROM old_rows o;
  ELSE
    -- Planned at every call, with the transition tables' real sizes (as lis_note_coverage_touched).
    EXECUTE $sql$
      INSERT INTO "coverage_sequences_touched" ("sequence_id")
      SELECT DISTINCT v.sequence_id
      FROM old_rows o JOIN new_rows r ON r."id" = o."id"
      CROSS JOIN LATERAL (VALUES (o."sequence_id"), (r."sequence_id")) AS v(sequence_id)
      WHERE (o."sequence_id", o."sequence_index") IS DISTINCT FROM (r."sequence_id", r."sequence_index")
    $sql$;
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER photos_sequences_on_insert AFTER INSERT ON photos
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION lis_note_sequences_touched();
CREATE TRIGGER photos_sequences_on_update AFTER UPDATE ON photos
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION lis_note_sequences_touched();
CREATE TRIGGER photos_sequences_on_delete AFTER DELETE ON photos
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION lis_note_sequences_touched();
CREATE TRIGGER photos_sequences_on_truncate AFTER TRUNCATE ON photos
  FOR EACH STATEMENT EXECUTE FUNCTION lis_note_sequences_touched();

-- The full rebuild writes every line as well (a first load, a TRUNCATE, a large import).
CREATE OR REPLACE FUNCTION "lis_refresh_coverage"() RETURNS bigint
  LANGUAGE plpgsql AS $$
DECLARE
  cells bigint := 0;
  added bigint;
BEGIN
  PERFORM pg_advisory_xact_lock(hashtext('lis_refresh_coverage'));
  -- Before the images are read: a location touched by a write that commits later stays for the next
  -- refresh (DELETE, not TRUNCATE: writers go on adding rows meanwhile).
  DELETE FROM coverage_touched;
  DELETE FROM coverage_sequences_touched;
  -- The images' sort in memory rather than in files (it takes about 150 bytes an image), and no JIT:
  -- PostGIS's function costs make every statement here look worth compiling, which took seconds.
  PERFORM set_config('work_mem', '512MB', true);
  PERFORM set_config('jit', 'off', true);
  PERFORM lis_coverage_next();
  -- Cells by their whole-number column and row (a sort on numbers, not geometries), in the grid's order
  -- row by row: a tile's cells lie together on disk. The count's window is in the same order as the
  -- rows, so that the images are sorted once.
  INSERT INTO coverage_cells_next (zoom, geom, count, image_id, heading, interactive, captured_at)
  SELECT DISTINCT ON (cy, cx) 16, p, count(*) OVER (PARTITION BY cy, cx ORDER BY captured_at DESC, id ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING),
         id, heading, interactive, captured_at
  FROM (SELECT (lis_coverage_cell(16, ST_X(q.p), ST_Y(q.p))).*, q.*
        FROM (SELECT ST_Transform(location, 3857) AS p, id, heading, interactive, captured_at FROM imagery) q) i
  ORDER BY cy, cx, captured_at DESC, id;
  GET DIAGNOSTICS added = ROW_COUNT;
  cells := cells + added;
  INSERT INTO coverage_cells_next (zoom, geom, count, image_id, heading, interactive, captured_at)
  SELECT DISTINCT ON (cy, cx) 15, geom,
         sum(count) OVER (PARTITION BY cy, cx ORDER BY captured_at DESC, image_id ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING),
         image_id, heading, interactive, captured_at
  FROM (SELECT (lis_coverage_cell(15, ST_X(geom), ST_Y(geom))).*, c.*
        FROM coverage_cells_next c WHERE zoom = 16) i
  ORDER BY cy, cx, captured_at DESC, image_id;
  GET DIAGNOSTICS added = ROW_COUNT;
  cells := cells + lis_coverage_low_zooms() + added;
  PERFORM lis_coverage_swap_in_next();
  PERFORM lis_write_coverage_sequences(NULL);
  PERFORM lis_map_data_changed();
  RETURN cells;
END $$;

-- The incremental refresh brings the sequences touched up to date as well, and raises the data version
-- when only photos changed (a sequence cut anew by a re-import).
CREATE OR REPLACE FUNCTION "lis_update_coverage"(full_above float8 DEFAULT 0.02, OUT rebuilt boolean, OUT cells bigint)
  LANGUAGE plpgsql AS $$
DECLARE
  touched bigint;
  sequences bigint;
  catalogue float8;
BEGIN
  PERFORM pg_advisory_xact_lock(hashtext('lis_refresh_coverage'));
  PERFORM set_config('jit', 'off', true);
  CREATE TEMPORARY TABLE coverage_touched_now ON COMMIT DROP AS SELECT location FROM coverage_touched WHERE false;
  WITH taken AS (DELETE FROM coverage_touched RETURNING location)
  INSERT INTO coverage_touched_now SELECT location FROM taken;
  GET DIAGNOSTICS touched = ROW_COUNT;
  CREATE TEMPORARY TABLE coverage_sequences_touched_now ON COMMIT DROP AS
  SELECT sequence_id FROM coverage_sequences_touched WHERE false;
  WITH taken AS (DELETE FROM coverage_sequences_touched RETURNING sequence_id)
  INSERT INTO coverage_sequences_touched_now SELECT sequence_id FROM taken;
  GET DIAGNOSTICS sequences = ROW_COUNT;
  -- The zoom 16 cells touched.
  CREATE TEMPORARY TABLE coverage_keys ON COMMIT DROP AS
  SELECT DISTINCT (lis_coverage_cell(16, ST_X(p), ST_Y(p))).*
  FROM (SELECT ST_Transform(location, 3857) AS p FROM coverage_touched_now WHERE location IS NOT NULL) t;
  SELECT coalesce(sum(count), 0) INTO catalogue FROM coverage_cells WHERE zoom = 0;
  -- The built-in database (PGlite) rebuilds always: its PostGIS fails to estimate a join on `&&`
  -- ("invalid join selectivity"), which every step here is; it holds small catalogues.
  rebuilt := touched > 0 AND (EXISTS (SELECT 1 FROM coverage_touched_now WHERE location IS NULL)
                              OR catalogue = 0 OR (SELECT count(*) FROM coverage_keys) > full_above * catalogue
                              OR version() LIKE '%PGlite%');
  cells := 0;
  IF rebuilt THEN
    DROP TABLE coverage_keys;
    cells := lis_refresh_coverage();
  ELSIF touched > 0 THEN
    ANALYZE coverage_keys;
    CREATE TEMPORARY TABLE coverage_changed (geom geometry, delta bigint) ON COMMIT DROP;
    cells := lis_update_coverage_16();
    IF EXISTS (SELECT 1 FROM coverage_changed) THEN
      cells := cells + lis_update_coverage_15();
    END IF;
    FOR z IN REVERSE 14..0 LOOP
      EXIT WHEN NOT EXISTS (SELECT 1 FROM coverage_changed);
      cells := cells + lis_update_coverage_low(z);
    END LOOP;
    DROP TABLE coverage_changed;
  ELSE
    DROP TABLE coverage_keys;
  END IF;
  IF NOT rebuilt AND (touched > 0 OR sequences > 0) THEN
    PERFORM lis_update_coverage_sequences();
    PERFORM lis_map_data_changed();
  END IF;
  DROP TABLE coverage_touched_now;
  DROP TABLE coverage_sequences_touched_now;
END $$;

-- Every role that may read the coverage cells without owning them (the read-only role of `npm run
-- db:create-readonly-role`) may read the lines too: tiles read them.
DO $$
DECLARE
  r RECORD;
  owner OID := (SELECT c.relowner FROM pg_class c WHERE c.oid = 'coverage_cells'::regclass);
BEGIN
  FOR r IN
    SELECT a.rolname FROM pg_roles a
    WHERE has_table_privilege(a.oid, 'coverage_cells', 'SELECT') AND NOT a.rolsuper
      AND a.rolname NOT LIKE 'pg\_%' AND NOT pg_has_role(a.oid, owner, 'MEMBER')
  LOOP
    EXECUTE format('GRANT SELECT ON coverage_sequences TO %I', r.rolname);
  END LOOP;
END $$;
