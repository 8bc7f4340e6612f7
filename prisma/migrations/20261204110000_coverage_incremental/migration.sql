-- The coverage refresh after an import recomputes only the cells of what the import touched, instead of
-- rebuilding every cell from every image (docs/map-tiles.md "Coverage cells"). Adds a table, a trigger
-- function and four triggers on imagery, and functions; changes no data.

-- The locations an imagery write touched since the last coverage refresh: the new location of each
-- inserted or updated record and the old location of each updated or deleted one (an update only when
-- what the cells hold changed: location, date, heading, 360 flag). A row without a location asks for a
-- full rebuild: a TRUNCATE of imagery, or a first load (its rows would be every record). Filled by the
-- triggers below in the writers' own transactions; emptied by the refresh that recomputes them.
CREATE TABLE "coverage_touched" (
  "location" geometry(Point, 4326)
);

CREATE FUNCTION lis_note_coverage_touched() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'TRUNCATE' OR EXISTS (SELECT 1 FROM "imagery_first_load") THEN
    INSERT INTO "coverage_touched" ("location") VALUES (NULL);
  ELSIF TG_OP = 'INSERT' THEN
    INSERT INTO "coverage_touched" ("location") SELECT r."location" FROM new_rows r;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO "coverage_touched" ("location") SELECT o."location" FROM old_rows o;
  ELSE
    INSERT INTO "coverage_touched" ("location")
    SELECT v.location
    FROM old_rows o JOIN new_rows r ON r."id" = o."id"
    CROSS JOIN LATERAL (VALUES (o."location"), (r."location")) AS v(location)
    WHERE (ST_X(o."location"), ST_Y(o."location"), o."captured_at", o."heading", o."interactive")
          IS DISTINCT FROM (ST_X(r."location"), ST_Y(r."location"), r."captured_at", r."heading", r."interactive");
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER imagery_coverage_on_insert AFTER INSERT ON "imagery"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION lis_note_coverage_touched();
CREATE TRIGGER imagery_coverage_on_update AFTER UPDATE ON "imagery"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION lis_note_coverage_touched();
CREATE TRIGGER imagery_coverage_on_delete AFTER DELETE ON "imagery"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION lis_note_coverage_touched();
CREATE TRIGGER imagery_coverage_on_truncate AFTER TRUNCATE ON "imagery"
  FOR EACH STATEMENT EXECUTE FUNCTION lis_note_coverage_touched();

-- The full rebuild as before, which now also takes the touched locations it covers.
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

-- The box (EPSG:3857) of the cell in column cx, row cy of zoom z's grid (cells of 1/64 of a tile's side,
-- rows counted from the top), widened by 1/64 of a cell: a superset of what the cell's floor() takes,
-- whatever the rounding, for an index to narrow the rows down before the exact test.
CREATE FUNCTION lis_coverage_cell_box(z integer, cx integer, cy integer) RETURNS geometry
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT ST_Expand(ST_MakeEnvelope(-20037508.342789244 + cx * s, 20037508.342789244 - (cy + 1) * s,
                                   -20037508.342789244 + (cx + 1) * s, 20037508.342789244 - cy * s, 3857), s / 64)
  FROM (SELECT 40075016.685578488::float8 / (2 ^ z * 64) AS s) g
$$;

-- Puts one zoom's recomputed cells in place (the incremental refresh's step for each zoom): compares
-- the cells found (coverage_old, with their row ids) with the cells recomputed (coverage_new), both by
-- the cell's key (kx, ky), deletes the ones that changed or emptied and inserts the changed or new
-- ones. Leaves in coverage_changed each changed cell's old point with its count taken away and its
-- new point with its count added: the next step's changes to the counts of the zoom below. Returns the
-- cells changed.
CREATE FUNCTION lis_apply_coverage_cells(z integer) RETURNS bigint
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
  DELETE FROM coverage_cells WHERE ctid = ANY (ARRAY(SELECT row_id FROM coverage_diff WHERE row_id IS NOT NULL));
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

-- The incremental refresh's zoom 16: the cells of the touched locations (coverage_keys, made by
-- lis_update_coverage), recomputed from their images read through imagery_location_idx, each image in the cell of the same
-- floor() of its projected point as the full rebuild's.
CREATE FUNCTION lis_update_coverage_16() RETURNS bigint
LANGUAGE plpgsql AS $$
DECLARE
  world CONSTANT float8 := 40075016.685578488;
  origin CONSTANT float8 := -20037508.342789244;
BEGIN
  CREATE TEMPORARY TABLE coverage_new ON COMMIT DROP AS
  SELECT DISTINCT ON (i.cy, i.cx) i.cx::float8 AS kx, i.cy::float8 AS ky, i.p AS geom,
         count(*) OVER (PARTITION BY i.cy, i.cx) AS count, i.id AS image_id, i.heading, i.interactive, i.captured_at
  FROM coverage_keys k CROSS JOIN LATERAL (
    SELECT floor((ST_X(q.p) - origin) / (world / (2 ^ 16 * 64)))::int AS cx,
           floor((-origin - ST_Y(q.p)) / (world / (2 ^ 16 * 64)))::int AS cy, q.*
    FROM (SELECT ST_Transform(m.location, 3857) AS p, m.id, m.heading, m.interactive, m.captured_at
          FROM imagery m WHERE m.location && ST_Transform(lis_coverage_cell_box(16, k.cx, k.cy), 4326)) q) i
  WHERE i.cx = k.cx AND i.cy = k.cy
  ORDER BY i.cy, i.cx, i.captured_at DESC, i.id;
  CREATE TEMPORARY TABLE coverage_old ON COMMIT DROP AS
  SELECT c.ctid AS row_id, k.cx::float8 AS kx, k.cy::float8 AS ky, c.geom, c.count, c.image_id, c.heading,
         c.interactive, c.captured_at
  FROM coverage_keys k CROSS JOIN LATERAL (
    SELECT c.ctid, c.* FROM coverage_cells c WHERE c.zoom = 16 AND c.geom && lis_coverage_cell_box(16, k.cx, k.cy)) c
  WHERE floor((ST_X(c.geom) - origin) / (world / (2 ^ 16 * 64)))::int = k.cx
    AND floor((-origin - ST_Y(c.geom)) / (world / (2 ^ 16 * 64)))::int = k.cy;
  DROP TABLE coverage_keys;
  RETURN lis_apply_coverage_cells(16);
END $$;

-- The incremental refresh's zoom 15: the cells of the zoom 16 cells that changed, each from its four
-- (the newest of their images, the sum of their counts), as the full rebuild's.
CREATE FUNCTION lis_update_coverage_15() RETURNS bigint
LANGUAGE plpgsql AS $$
DECLARE
  world CONSTANT float8 := 40075016.685578488;
  origin CONSTANT float8 := -20037508.342789244;
BEGIN
  CREATE TEMPORARY TABLE coverage_keys ON COMMIT DROP AS
  SELECT DISTINCT floor((ST_X(geom) - origin) / (world / (2 ^ 15 * 64)))::int AS cx,
                  floor((-origin - ST_Y(geom)) / (world / (2 ^ 15 * 64)))::int AS cy
  FROM coverage_changed;
  ANALYZE coverage_keys;
  CREATE TEMPORARY TABLE coverage_new ON COMMIT DROP AS
  SELECT DISTINCT ON (i.cy, i.cx) i.cx::float8 AS kx, i.cy::float8 AS ky, i.geom,
         sum(i.count) OVER (PARTITION BY i.cy, i.cx) AS count, i.image_id, i.heading, i.interactive, i.captured_at
  FROM coverage_keys k CROSS JOIN LATERAL (
    SELECT floor((ST_X(c.geom) - origin) / (world / (2 ^ 15 * 64)))::int AS cx,
           floor((-origin - ST_Y(c.geom)) / (world / (2 ^ 15 * 64)))::int AS cy, c.*
    FROM coverage_cells c WHERE c.zoom = 16 AND c.geom && lis_coverage_cell_box(15, k.cx, k.cy)) i
  WHERE i.cx = k.cx AND i.cy = k.cy
  ORDER BY i.cy, i.cx, i.captured_at DESC, i.image_id;
  CREATE TEMPORARY TABLE coverage_old ON COMMIT DROP AS
  SELECT c.ctid AS row_id, k.cx::float8 AS kx, k.cy::float8 AS ky, c.geom, c.count, c.image_id, c.heading,
         c.interactive, c.captured_at
  FROM coverage_keys k CROSS JOIN LATERAL (
    SELECT c.ctid, c.* FROM coverage_cells c WHERE c.zoom = 15 AND c.geom && lis_coverage_cell_box(15, k.cx, k.cy)) c
  WHERE floor((ST_X(c.geom) - origin) / (world / (2 ^ 15 * 64)))::int = k.cx
    AND floor((-origin - ST_Y(c.geom)) / (world / (2 ^ 15 * 64)))::int = k.cy;
  DROP TABLE coverage_keys;
  RETURN lis_apply_coverage_cells(15);
END $$;

-- The incremental refresh's zoom z (0 to 14): a cell's count is the sum of the counts of the zoom z + 1
-- cells that snap to it (the same ST_SnapToGrid as the full rebuild's), so each cell the changes of
-- zoom z + 1 snap to gets their sum added to its count, without reading the cells around: a cell whose
-- count falls to 0 has no cell above it left and is deleted, a cell that had none is new. The zoom is
-- written into the statement (EXECUTE) so that it picks its zoom's partial index.
CREATE FUNCTION lis_update_coverage_low(z integer) RETURNS bigint
LANGUAGE plpgsql AS $$
DECLARE
  world CONSTANT float8 := 40075016.685578488;
  origin CONSTANT float8 := -20037508.342789244;
BEGIN
  CREATE TEMPORARY TABLE coverage_keys ON COMMIT DROP AS
  SELECT ST_X(p) AS kx, ST_Y(p) AS ky, (array_agg(p))[1] AS p, sum(delta) AS delta
  FROM (SELECT ST_SnapToGrid(geom, origin + world / (2 ^ z * 64) / 2, origin + world / (2 ^ z * 64) / 2,
                             world / (2 ^ z * 64), world / (2 ^ z * 64)) AS p, delta FROM coverage_changed) c
  GROUP BY 1, 2 HAVING sum(delta) <> 0;
  ANALYZE coverage_keys;
  EXECUTE format($sql$
    CREATE TEMPORARY TABLE coverage_old ON COMMIT DROP AS
    SELECT c.ctid AS row_id, k.kx, k.ky, c.geom, c.count, c.image_id, c.heading, c.interactive, c.captured_at
    FROM coverage_keys k JOIN coverage_cells c
      ON c.zoom = %s AND c.geom && k.p AND ST_X(c.geom) = k.kx AND ST_Y(c.geom) = k.ky$sql$, z);
  CREATE TEMPORARY TABLE coverage_new ON COMMIT DROP AS
  SELECT k.kx, k.ky, k.p AS geom, coalesce(o.count, 0) + k.delta AS count, NULL::uuid AS image_id,
         NULL::float8 AS heading, NULL::boolean AS interactive, NULL::date AS captured_at
  FROM coverage_keys k LEFT JOIN coverage_old o ON o.kx = k.kx AND o.ky = k.ky
  WHERE coalesce(o.count, 0) + k.delta > 0;
  DROP TABLE coverage_keys;
  RETURN lis_apply_coverage_cells(z);
END $$;

-- The coverage refresh after an import: recomputes the cells of the locations touched since the last
-- refresh (coverage_touched) in place, zoom 16 from the images, each lower zoom from the cells above
-- that changed, then raises the data version; nothing at all when nothing was touched. Rebuilds in full
-- (lis_refresh_coverage) after a TRUNCATE or a first load, when there are no cells yet, or when the
-- zoom 16 cells touched are more than `full_above` of the catalogue's images (those the cells counted,
-- zoom 0's counts: exact as of the last refresh, whatever the statistics): the recomputation costs
-- about the same per cell touched, the rebuild per image, and past that share the rebuild is the
-- faster (docs/map-tiles.md). One refresh at a time (the full rebuild's lock).
-- Returns whether it rebuilt in full, and the cells it wrote (all of them in a full rebuild).
CREATE FUNCTION lis_update_coverage(full_above float8 DEFAULT 0.02, OUT rebuilt boolean, OUT cells bigint)
LANGUAGE plpgsql AS $$
DECLARE
  world CONSTANT float8 := 40075016.685578488;
  origin CONSTANT float8 := -20037508.342789244;
  touched bigint;
  catalogue float8;
BEGIN
  PERFORM pg_advisory_xact_lock(hashtext('lis_refresh_coverage'));
  PERFORM set_config('jit', 'off', true);
  CREATE TEMPORARY TABLE coverage_touched_now ON COMMIT DROP AS SELECT location FROM coverage_touched WHERE false;
  WITH taken AS (DELETE FROM coverage_touched RETURNING location)
  INSERT INTO coverage_touched_now SELECT location FROM taken;
  GET DIAGNOSTICS touched = ROW_COUNT;
  -- The zoom 16 cells touched (as the full rebuild's floor() puts the images in them).
  CREATE TEMPORARY TABLE coverage_keys ON COMMIT DROP AS
  SELECT DISTINCT floor((ST_X(p) - origin) / (world / (2 ^ 16 * 64)))::int AS cx,
                  floor((-origin - ST_Y(p)) / (world / (2 ^ 16 * 64)))::int AS cy
  FROM (SELECT ST_Transform(location, 3857) AS p FROM coverage_touched_now WHERE location IS NOT NULL) t;
  SELECT coalesce(sum(count), 0) INTO catalogue FROM coverage_cells WHERE zoom = 0;
  -- The built-in database (PGlite) rebuilds always: its PostGIS fails to estimate a join on `&&`
  -- ("invalid join selectivity"), which every step here is; it holds small catalogues.
  rebuilt := touched > 0 AND (EXISTS (SELECT 1 FROM coverage_touched_now WHERE location IS NULL)
                              OR catalogue = 0 OR (SELECT count(*) FROM coverage_keys) > full_above * catalogue
                              OR version() LIKE '%PGlite%');
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
    PERFORM lis_map_data_changed();
  ELSE
    DROP TABLE coverage_keys;
    cells := 0;
  END IF;
  DROP TABLE coverage_touched_now;
END $$;
