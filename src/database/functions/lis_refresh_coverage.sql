-- Function lis_refresh_coverage, as the migrations leave it (written by `npm run sql:functions`; change it in a migration).

CREATE OR REPLACE FUNCTION public.lis_refresh_coverage()
 RETURNS bigint
 LANGUAGE plpgsql
AS $function$
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
END $function$;
