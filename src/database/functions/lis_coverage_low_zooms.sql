-- Function lis_coverage_low_zooms, as the migrations leave it (written by `npm run sql:functions`; change it in a migration).

CREATE OR REPLACE FUNCTION public.lis_coverage_low_zooms()
 RETURNS bigint
 LANGUAGE plpgsql
AS $function$
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
END $function$;
