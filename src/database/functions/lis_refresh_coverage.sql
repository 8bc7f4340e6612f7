-- Function lis_refresh_coverage, as the migrations leave it (written by `npm run sql:functions`; change it in a migration).

CREATE OR REPLACE FUNCTION public.lis_refresh_coverage()
 RETURNS bigint
 LANGUAGE plpgsql
AS $function$
DECLARE
  world CONSTANT float8 := 40075016.685578488;
  origin CONSTANT float8 := -20037508.342789244;
  cells bigint := 0;
  added bigint;
BEGIN
  PERFORM pg_advisory_xact_lock(hashtext('lis_refresh_coverage'));
  -- The images' sort (two million rows of a dense catalogue) in memory rather than in files.
  PERFORM set_config('work_mem', '256MB', true);
  CREATE TABLE coverage_cells_next (LIKE coverage_cells INCLUDING ALL EXCLUDING INDEXES);
  -- Cells by their whole-number column and row (a sort on numbers, not geometries), in the grid's order
  -- row by row: a tile's cells lie together on disk.
  INSERT INTO coverage_cells_next (zoom, geom, count, image_id, heading, interactive, captured_at)
  SELECT DISTINCT ON (cy, cx) 16, p, count(*) OVER (PARTITION BY cy, cx), id, heading, interactive, captured_at
  FROM (SELECT floor((ST_X(q.p) - origin) / (world / (2 ^ 16 * 64)))::int AS cx,
               floor((-origin - ST_Y(q.p)) / (world / (2 ^ 16 * 64)))::int AS cy, q.*
        FROM (SELECT ST_Transform(location, 3857) AS p, id, heading, interactive, captured_at FROM imagery) q) i
  ORDER BY cy, cx, captured_at DESC, id;
  GET DIAGNOSTICS added = ROW_COUNT;
  cells := cells + added;
  INSERT INTO coverage_cells_next (zoom, geom, count, image_id, heading, interactive, captured_at)
  SELECT DISTINCT ON (cy, cx) 15, geom, sum(count) OVER (PARTITION BY cy, cx), image_id, heading, interactive, captured_at
  FROM (SELECT floor((ST_X(geom) - origin) / (world / (2 ^ 15 * 64)))::int AS cx,
               floor((-origin - ST_Y(geom)) / (world / (2 ^ 15 * 64)))::int AS cy, c.*
        FROM coverage_cells_next c WHERE zoom = 16) i
  ORDER BY cy, cx, captured_at DESC, image_id;
  GET DIAGNOSTICS added = ROW_COUNT;
  cells := cells + added;
  FOR z IN REVERSE 14..0 LOOP
    INSERT INTO coverage_cells_next (zoom, geom, count)
    SELECT z, ST_SnapToGrid(geom, origin + world / (2 ^ z * 64) / 2, origin + world / (2 ^ z * 64) / 2,
                            world / (2 ^ z * 64), world / (2 ^ z * 64)), sum(count)
    FROM coverage_cells_next WHERE zoom = z + 1 GROUP BY 2;
    GET DIAGNOSTICS added = ROW_COUNT;
    cells := cells + added;
  END LOOP;
  PERFORM lis_swap_in_table('coverage_cells', 'coverage_cells_next');
  PERFORM lis_map_data_changed();
  RETURN cells;
END $function$;
