-- Function lis_update_coverage_low, as the migrations leave it (written by `npm run sql:functions`; change it in a migration).

CREATE OR REPLACE FUNCTION public.lis_update_coverage_low(z integer)
 RETURNS bigint
 LANGUAGE plpgsql
AS $function$
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
END $function$;
