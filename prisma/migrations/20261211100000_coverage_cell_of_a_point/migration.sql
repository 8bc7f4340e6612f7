-- The coverage grid's cell of a point in one function, lis_coverage_cell, and the centre of a cell in
-- another, lis_coverage_cell_centre (beside lis_coverage_cell_box), instead of the arithmetic written out
-- in each coverage function. One rule for every zoom: the cell holding a point is the floor of its
-- distance from the grid's west and north edges in cells, so each cell of zooms 0 to 14 is the one
-- holding the cells of the zoom above it. The cells are those of before for every point off a cell's edge;
-- a point on the edge of a zoom 14 cell (to within a few units in the last place: an image at latitude 0,
-- say) now counts in the cell holding its zoom 15 cell, by the rule zooms 15 and 16 always had. Adds a type
-- and two functions, replaces six; changes no cells, and has the next coverage refresh rebuild them all.

-- A coverage cell: its column from the west (cx) and row from the north (cy) at its zoom.
CREATE TYPE lis_coverage_cell_xy AS (cx integer, cy integer);

-- The cell holding the EPSG:3857 point (x, y) at zoom z, in the coverage grid: each tile of the zoom cut
-- into 64 x 64 cells, the world's side 40075016.685578488 metres from the corner -20037508.342789244. A
-- cell holds its western and northern edges. The point comes as two numbers so that PostgreSQL inlines the
-- function into its caller's statement (an argument used twice, as a point would be by ST_X and ST_Y, is
-- inlined only when cheap), leaving the statement as fast as the arithmetic written out; callers take
-- (lis_coverage_cell(...)).* or .cx / .cy.
CREATE FUNCTION lis_coverage_cell(z integer, x float8, y float8) RETURNS lis_coverage_cell_xy
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT ROW(floor((x - -20037508.342789244::float8) / (40075016.685578488::float8 / (2 ^ z * 64)))::int,
             floor((20037508.342789244::float8 - y) / (40075016.685578488::float8 / (2 ^ z * 64)))::int)::lis_coverage_cell_xy
$$;

-- The centre of the cell (cx, cy) at zoom z, in EPSG:3857: the point the cells of zooms 0 to 14 are drawn at
-- (those of zooms 15 and 16 at their newest image).
CREATE FUNCTION lis_coverage_cell_centre(z integer, cx integer, cy integer) RETURNS geometry
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT ST_Point(cx * (40075016.685578488::float8 / (2 ^ z * 64))
                    + (-20037508.342789244::float8 + 40075016.685578488::float8 / (2 ^ z * 64) / 2),
                  (2 ^ z * 64 - 1 - cy) * (40075016.685578488::float8 / (2 ^ z * 64))
                    + (-20037508.342789244::float8 + 40075016.685578488::float8 / (2 ^ z * 64) / 2), 3857)
$$;

CREATE OR REPLACE FUNCTION lis_refresh_coverage() RETURNS bigint
LANGUAGE plpgsql AS $$
DECLARE
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
  PERFORM lis_map_data_changed();
  RETURN cells;
END $$;

-- Zooms 14 to 0 of the full rebuild: each cell of zoom 14 sums the zoom 15 cells it holds (by the cell
-- holding each one's point), each lower zoom the four cells of the zoom above (its column and row halved).
CREATE OR REPLACE FUNCTION lis_coverage_low_zooms() RETURNS bigint
LANGUAGE plpgsql AS $$
DECLARE
  added bigint;
BEGIN
  EXECUTE (
    SELECT format($sql$
      WITH z14 AS (
        SELECT cx, cy, sum(count)::int AS count
        FROM (SELECT (lis_coverage_cell(14, ST_X(geom), ST_Y(geom))).*, count FROM coverage_cells_next WHERE zoom = 15) c
        GROUP BY 1, 2)%1$s,
      low AS (%2$s)
      INSERT INTO coverage_cells_next (zoom, geom, count)
      SELECT zoom, lis_coverage_cell_centre(zoom, cx, cy), count
      FROM low$sql$,
      string_agg(format(', z%s AS (SELECT cx >> 1 AS cx, cy >> 1 AS cy, sum(count)::int AS count FROM z%s GROUP BY 1, 2)',
                        z, z + 1), '' ORDER BY z DESC) FILTER (WHERE z < 14),
      string_agg(format('SELECT %s AS zoom, cx, cy, count FROM z%s', z, z), ' UNION ALL ' ORDER BY z DESC))
    FROM generate_series(0, 14) z);
  GET DIAGNOSTICS added = ROW_COUNT;
  RETURN added;
END $$;

CREATE OR REPLACE FUNCTION lis_update_coverage(full_above float8 DEFAULT 0.02, OUT rebuilt boolean, OUT cells bigint)
LANGUAGE plpgsql AS $$
DECLARE
  touched bigint;
  catalogue float8;
BEGIN
  PERFORM pg_advisory_xact_lock(hashtext('lis_refresh_coverage'));
  PERFORM set_config('jit', 'off', true);
  CREATE TEMPORARY TABLE coverage_touched_now ON COMMIT DROP AS SELECT location FROM coverage_touched WHERE false;
  WITH taken AS (DELETE FROM coverage_touched RETURNING location)
  INSERT INTO coverage_touched_now SELECT location FROM taken;
  GET DIAGNOSTICS touched = ROW_COUNT;
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

CREATE OR REPLACE FUNCTION lis_update_coverage_16() RETURNS bigint
LANGUAGE plpgsql AS $$
BEGIN
  CREATE TEMPORARY TABLE coverage_new ON COMMIT DROP AS
  SELECT DISTINCT ON (i.cy, i.cx) i.cx::float8 AS kx, i.cy::float8 AS ky, i.p AS geom,
         count(*) OVER (PARTITION BY i.cy, i.cx) AS count, i.id AS image_id, i.heading, i.interactive, i.captured_at
  FROM coverage_keys k CROSS JOIN LATERAL (
    SELECT (lis_coverage_cell(16, ST_X(q.p), ST_Y(q.p))).*, q.*
    FROM (SELECT ST_Transform(m.location, 3857) AS p, m.id, m.heading, m.interactive, m.captured_at
          FROM imagery m WHERE m.location && ST_Transform(lis_coverage_cell_box(16, k.cx, k.cy), 4326)) q) i
  WHERE i.cx = k.cx AND i.cy = k.cy
  ORDER BY i.cy, i.cx, i.captured_at DESC, i.id;
  CREATE TEMPORARY TABLE coverage_old ON COMMIT DROP AS
  SELECT c.ctid AS row_id, k.cx::float8 AS kx, k.cy::float8 AS ky, c.geom, c.count, c.image_id, c.heading,
         c.interactive, c.captured_at
  FROM coverage_keys k CROSS JOIN LATERAL (
    SELECT c.ctid, (lis_coverage_cell(16, ST_X(c.geom), ST_Y(c.geom))).*, c.*
    FROM coverage_cells c WHERE c.zoom = 16 AND c.geom && lis_coverage_cell_box(16, k.cx, k.cy)) c
  WHERE c.cx = k.cx AND c.cy = k.cy;
  DROP TABLE coverage_keys;
  RETURN lis_apply_coverage_cells(16);
END $$;

CREATE OR REPLACE FUNCTION lis_update_coverage_15() RETURNS bigint
LANGUAGE plpgsql AS $$
BEGIN
  CREATE TEMPORARY TABLE coverage_keys ON COMMIT DROP AS
  SELECT DISTINCT (lis_coverage_cell(15, ST_X(geom), ST_Y(geom))).*
  FROM coverage_changed;
  ANALYZE coverage_keys;
  CREATE TEMPORARY TABLE coverage_new ON COMMIT DROP AS
  SELECT DISTINCT ON (i.cy, i.cx) i.cx::float8 AS kx, i.cy::float8 AS ky, i.geom,
         sum(i.count) OVER (PARTITION BY i.cy, i.cx) AS count, i.image_id, i.heading, i.interactive, i.captured_at
  FROM coverage_keys k CROSS JOIN LATERAL (
    SELECT (lis_coverage_cell(15, ST_X(c.geom), ST_Y(c.geom))).*, c.*
    FROM coverage_cells c WHERE c.zoom = 16 AND c.geom && lis_coverage_cell_box(15, k.cx, k.cy)) i
  WHERE i.cx = k.cx AND i.cy = k.cy
  ORDER BY i.cy, i.cx, i.captured_at DESC, i.image_id;
  CREATE TEMPORARY TABLE coverage_old ON COMMIT DROP AS
  SELECT c.ctid AS row_id, k.cx::float8 AS kx, k.cy::float8 AS ky, c.geom, c.count, c.image_id, c.heading,
         c.interactive, c.captured_at
  FROM coverage_keys k CROSS JOIN LATERAL (
    SELECT c.ctid, (lis_coverage_cell(15, ST_X(c.geom), ST_Y(c.geom))).*, c.*
    FROM coverage_cells c WHERE c.zoom = 15 AND c.geom && lis_coverage_cell_box(15, k.cx, k.cy)) c
  WHERE c.cx = k.cx AND c.cy = k.cy;
  DROP TABLE coverage_keys;
  RETURN lis_apply_coverage_cells(15);
END $$;

-- Zoom z of an incremental update: the cells holding the cells of zoom z + 1 that changed, each by the sum
-- of their changes (its cell found at its centre, as the full rebuild draws it).
CREATE OR REPLACE FUNCTION lis_update_coverage_low(z integer) RETURNS bigint
LANGUAGE plpgsql AS $$
BEGIN
  CREATE TEMPORARY TABLE coverage_keys ON COMMIT DROP AS
  SELECT ST_X(p) AS kx, ST_Y(p) AS ky, p, delta
  FROM (SELECT lis_coverage_cell_centre(z, cx, cy) AS p, sum(delta) AS delta
        FROM (SELECT (lis_coverage_cell(z, ST_X(geom), ST_Y(geom))).*, delta FROM coverage_changed) c
        GROUP BY cx, cy HAVING sum(delta) <> 0) d;
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

-- Cells written by the rule before meet the incremental update's keys everywhere but on those edges: the
-- next refresh rebuilds them all (a touched row without a location asks for that), where there are any.
INSERT INTO coverage_touched (location) SELECT NULL WHERE EXISTS (SELECT 1 FROM coverage_cells);
