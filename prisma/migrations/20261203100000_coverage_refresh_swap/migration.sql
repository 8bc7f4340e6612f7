-- The coverage refresh builds its cells in a table of their own and swaps it in, instead of deleting
-- the old cells and inserting the new ones into the live table: a row written into a table with 17
-- GiST indexes is written into its index one by one, and the cells of zooms 15 and 16 made that most
-- of the refresh (docs/map-tiles.md). A table built without indexes, then indexed once each, costs a
-- fraction of that, and leaves no dead rows behind. Changes functions only; no data.

-- Puts the table `next` (filled, without indexes) in place of `live`, inside the caller's transaction:
-- builds on `next` each index `live` has (the same definition, built once on the whole table), gives it
-- the grants and the statistics, then drops `live` and gives `next` and its indexes `live`'s names.
-- Until the transaction commits, readers of `live` read the old rows without waiting; from the DROP on,
-- they wait for the commit (the renames only), then read the new table by the same name. Indexes
-- that back a constraint are refused (they would need the constraint itself).
CREATE FUNCTION lis_swap_in_table(live regclass, next regclass) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  live_name text;
  schema_name text;
  names text[] := '{}';
  built text[] := '{}';
  i record;
  g record;
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
  EXECUTE format('ANALYZE %s', next);
  EXECUTE format('DROP TABLE %s', live);
  EXECUTE format('ALTER TABLE %s RENAME TO %I', next, live_name);
  FOR k IN 1..cardinality(names) LOOP
    EXECUTE format('ALTER INDEX %I.%I RENAME TO %I', schema_name, built[k], names[k]);
  END LOOP;
END $$;

-- Rebuilds coverage_cells from the imagery: zoom 16 from the images (per cell its count and its newest
-- image, ties broken by the smaller id), zoom 15 from 16 (the newest of its four cells' images), each
-- lower zoom from the one above (its cells are exactly four of them: the grids share the origin of
-- EPSG:3857), all into a new table without indexes that lis_swap_in_table puts in place of the old one,
-- then raises the data version. One refresh at a time; a refresh that fails or is interrupted leaves
-- the old cells and the old version. Returns the number of cells.
CREATE OR REPLACE FUNCTION lis_refresh_coverage() RETURNS bigint
LANGUAGE plpgsql AS $$
DECLARE
  world CONSTANT float8 := 40075016.685578488;
  origin CONSTANT float8 := -20037508.342789244;
  cells bigint := 0;
  added bigint;
BEGIN
  PERFORM pg_advisory_xact_lock(hashtext('lis_refresh_coverage'));
  -- The images' sort in memory rather than in files (it takes about 150 bytes an image), and no JIT:
  -- PostGIS's function costs make every statement here look worth compiling, which took seconds.
  PERFORM set_config('work_mem', '512MB', true);
  PERFORM set_config('jit', 'off', true);
  CREATE TABLE coverage_cells_next (LIKE coverage_cells INCLUDING ALL EXCLUDING INDEXES);
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
  cells := cells + added;
  -- The lower zooms, each from the one above, in a small table of their own: each step reads only the
  -- cells of the zoom above, not every cell of zooms 15 and 16 again.
  CREATE TEMPORARY TABLE coverage_cells_low ON COMMIT DROP AS
  SELECT zoom, geom, count FROM coverage_cells_next WHERE false;
  FOR z IN REVERSE 14..0 LOOP
    INSERT INTO coverage_cells_low (zoom, geom, count)
    SELECT z, ST_SnapToGrid(geom, origin + world / (2 ^ z * 64) / 2, origin + world / (2 ^ z * 64) / 2,
                            world / (2 ^ z * 64), world / (2 ^ z * 64)), sum(count)
    FROM (SELECT geom, count FROM coverage_cells_next WHERE zoom = 15 AND z = 14
          UNION ALL SELECT geom, count FROM coverage_cells_low WHERE zoom = z + 1) c
    GROUP BY 2;
  END LOOP;
  INSERT INTO coverage_cells_next (zoom, geom, count) SELECT zoom, geom, count FROM coverage_cells_low;
  GET DIAGNOSTICS added = ROW_COUNT;
  cells := cells + added;
  DROP TABLE coverage_cells_low;
  PERFORM lis_swap_in_table('coverage_cells', 'coverage_cells_next');
  PERFORM lis_map_data_changed();
  RETURN cells;
END $$;
