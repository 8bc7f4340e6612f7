-- The coverage cells in one table per zoom (coverage_cells LIST-partitioned by zoom), each with its own
-- GiST index, instead of one table with 17 partial indexes: the full rebuild built each partial index by
-- a scan of every cell of every zoom (docs/data.md). A tile's statement reads its zoom's partition only
-- (its `zoom = z` is a constant). The lower zooms of the rebuild are summed by their whole-number grid
-- column and row instead of by geometries. Moves the cells into the new table; the cells stay the same.

-- Creates coverage_cells_next: partitioned by zoom like coverage_cells, its partitions
-- coverage_cells_next_z0..16, without indexes (built once each when filled).
CREATE FUNCTION lis_coverage_next() RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  CREATE TABLE coverage_cells_next (LIKE coverage_cells INCLUDING ALL EXCLUDING INDEXES) PARTITION BY LIST (zoom);
  FOR z IN 0..16 LOOP
    EXECUTE format('CREATE TABLE %I PARTITION OF coverage_cells_next FOR VALUES IN (%s)', 'coverage_cells_next_z' || z, z);
  END LOOP;
END $$;

-- Puts the filled coverage_cells_next in place of coverage_cells (in the caller's transaction, as
-- lis_swap_in_table does): each partition's index built on that partition alone, then the partitions
-- and their indexes named as before (coverage_cells_z<zoom>, coverage_cells_z<zoom>_idx).
CREATE FUNCTION lis_coverage_swap_in_next() RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  FOR z IN 0..16 LOOP
    EXECUTE format('CREATE INDEX %I ON %I USING GIST (geom)', 'coverage_cells_next_z' || z || '_idx', 'coverage_cells_next_z' || z);
  END LOOP;
  PERFORM lis_swap_in_table('coverage_cells', 'coverage_cells_next');
  FOR z IN 0..16 LOOP
    EXECUTE format('ALTER TABLE %I RENAME TO %I', 'coverage_cells_next_z' || z, 'coverage_cells_z' || z);
    EXECUTE format('ALTER INDEX %I RENAME TO %I', 'coverage_cells_next_z' || z || '_idx', 'coverage_cells_z' || z || '_idx');
  END LOOP;
END $$;

-- lis_swap_in_table gives `next` the statistics of its partitions only, when it has them (of itself
-- when it has none): a tile reads one partition, planned with that partition's statistics, and a
-- partitioned table's own (a second sample across every partition) is what autovacuum never gathers.
CREATE OR REPLACE FUNCTION lis_swap_in_table(live regclass, next regclass) RETURNS void
LANGUAGE plpgsql AS $$
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
END $$;

-- Zooms 14..0 of coverage_cells_next from its zoom 15 cells, in one statement. A cell's whole-number
-- column and row at zoom 14 are what ST_SnapToGrid rounds its point to (round() is rint(), as there);
-- below, a cell's are its four children's halved (the grids share EPSG:3857's origin), and its point is
-- computed as ST_SnapToGrid computes it (index * size + the grid's offset): the same cells and counts as
-- snapping each zoom's points, without a sort or hash of geometries.
CREATE FUNCTION lis_coverage_low_zooms() RETURNS bigint
LANGUAGE plpgsql AS $$
DECLARE
  world CONSTANT text := '40075016.685578488::float8';
  origin CONSTANT text := '-20037508.342789244::float8';
  added bigint;
BEGIN
  EXECUTE (
    SELECT format($sql$
      WITH z14 AS (
        SELECT round((ST_X(geom) - (%1$s + %2$s / (2 ^ 14 * 64) / 2)) / (%2$s / (2 ^ 14 * 64)))::int AS kx,
               round((ST_Y(geom) - (%1$s + %2$s / (2 ^ 14 * 64) / 2)) / (%2$s / (2 ^ 14 * 64)))::int AS ky,
               sum(count)::int AS count
        FROM coverage_cells_next WHERE zoom = 15 GROUP BY 1, 2)%3$s,
      low AS (%4$s)
      INSERT INTO coverage_cells_next (zoom, geom, count)
      SELECT zoom, ST_Point(kx * (%2$s / (2 ^ zoom * 64)) + (%1$s + %2$s / (2 ^ zoom * 64) / 2),
                            ky * (%2$s / (2 ^ zoom * 64)) + (%1$s + %2$s / (2 ^ zoom * 64) / 2), 3857), count
      FROM low$sql$, origin, world,
      string_agg(format(', z%s AS (SELECT kx >> 1 AS kx, ky >> 1 AS ky, sum(count)::int AS count FROM z%s GROUP BY 1, 2)',
                        z, z + 1), '' ORDER BY z DESC) FILTER (WHERE z < 14),
      string_agg(format('SELECT %s AS zoom, kx, ky, count FROM z%s', z, z), ' UNION ALL ' ORDER BY z DESC))
    FROM generate_series(0, 14) z);
  GET DIAGNOSTICS added = ROW_COUNT;
  RETURN added;
END $$;

CREATE OR REPLACE FUNCTION lis_refresh_coverage() RETURNS bigint
LANGUAGE plpgsql AS $$
DECLARE
  world CONSTANT float8 := 40075016.685578488;
  origin CONSTANT float8 := -20037508.342789244;
  cells bigint := 0;
  added bigint;
BEGIN
  PERFORM pg_advisory_xact_lock(hashtext('lis_refresh_coverage'));
  -- Before the images are read: a location touched by a write that commits later stays for the next
  -- refresh (DELETE, not TRUNCATE: writers go on adding rows meanwhile).
  DELETE FROM coverage_touched;
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
  FROM (SELECT floor((ST_X(q.p) - origin) / (world / (2 ^ 16 * 64)))::int AS cx,
               floor((-origin - ST_Y(q.p)) / (world / (2 ^ 16 * 64)))::int AS cy, q.*
        FROM (SELECT ST_Transform(location, 3857) AS p, id, heading, interactive, captured_at FROM imagery) q) i
  ORDER BY cy, cx, captured_at DESC, id;
  GET DIAGNOSTICS added = ROW_COUNT;
  cells := cells + added;
  INSERT INTO coverage_cells_next (zoom, geom, count, image_id, heading, interactive, captured_at)
  SELECT DISTINCT ON (cy, cx) 15, geom,
         sum(count) OVER (PARTITION BY cy, cx ORDER BY captured_at DESC, image_id ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING),
         image_id, heading, interactive, captured_at
  FROM (SELECT floor((ST_X(geom) - origin) / (world / (2 ^ 15 * 64)))::int AS cx,
               floor((-origin - ST_Y(geom)) / (world / (2 ^ 15 * 64)))::int AS cy, c.*
        FROM coverage_cells_next c WHERE zoom = 16) i
  ORDER BY cy, cx, captured_at DESC, image_id;
  GET DIAGNOSTICS added = ROW_COUNT;
  cells := cells + lis_coverage_low_zooms() + added;
  PERFORM lis_coverage_swap_in_next();
  PERFORM lis_map_data_changed();
  RETURN cells;
END $$;

-- A cell's row id (ctid) is its row's within its zoom's partition: the delete names the zoom.
CREATE OR REPLACE FUNCTION lis_apply_coverage_cells(z integer) RETURNS bigint
LANGUAGE plpgsql AS $$
DECLARE
  changed bigint;
BEGIN
  CREATE TEMPORARY TABLE coverage_diff ON COMMIT DROP AS
  SELECT o.row_id, o.geom AS old_geom, o.count AS old_count, n.geom, n.count, n.image_id, n.heading, n.interactive,
         n.captured_at
  FROM coverage_old o FULL JOIN coverage_new n ON n.kx = o.kx AND n.ky = o.ky
  WHERE (ST_X(o.geom), ST_Y(o.geom), o.count, o.image_id, o.heading, o.interactive, o.captured_at)
        IS DISTINCT FROM (ST_X(n.geom), ST_Y(n.geom), n.count, n.image_id, n.heading, n.interactive, n.captured_at);
  DELETE FROM coverage_cells
  WHERE zoom = z AND ctid = ANY (ARRAY(SELECT row_id FROM coverage_diff WHERE row_id IS NOT NULL));
  INSERT INTO coverage_cells (zoom, geom, count, image_id, heading, interactive, captured_at)
  SELECT z, geom, count, image_id, heading, interactive, captured_at FROM coverage_diff WHERE geom IS NOT NULL;
  DELETE FROM coverage_changed;
  INSERT INTO coverage_changed (geom, delta)
  SELECT old_geom, -old_count FROM coverage_diff WHERE old_geom IS NOT NULL
  UNION ALL SELECT geom, count FROM coverage_diff WHERE geom IS NOT NULL;
  SELECT count(*) INTO changed FROM coverage_diff;
  DROP TABLE coverage_old, coverage_new, coverage_diff;
  RETURN changed;
END $$;

-- The cells as they are, moved into the partitioned table (the partial indexes dropped first: the swap
-- would otherwise build each of them on the new table).
DO $$
BEGIN
  FOR z IN 0..16 LOOP
    EXECUTE format('DROP INDEX %I', 'coverage_cells_z' || z || '_idx');
  END LOOP;
END $$;
SELECT lis_coverage_next();
INSERT INTO coverage_cells_next SELECT * FROM coverage_cells;
SELECT lis_coverage_swap_in_next();
