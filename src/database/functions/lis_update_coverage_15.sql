-- Function lis_update_coverage_15, as the migrations leave it (written by `npm run sql:functions`; change it in a migration).

CREATE OR REPLACE FUNCTION public.lis_update_coverage_15()
 RETURNS bigint
 LANGUAGE plpgsql
AS $function$
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
END $function$;
