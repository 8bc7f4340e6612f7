-- Function lis_coverage_low_zooms, as the migrations leave it (written by `npm run sql:functions`; change it in a migration).

CREATE OR REPLACE FUNCTION public.lis_coverage_low_zooms()
 RETURNS bigint
 LANGUAGE plpgsql
AS $function$
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
END $function$;
