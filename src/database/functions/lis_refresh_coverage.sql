-- Function lis_refresh_coverage, as the migrations leave it (written by `npm run sql:functions`; change it in a migration).

CREATE OR REPLACE FUNCTION public.lis_refresh_coverage()
 RETURNS bigint
 LANGUAGE plpgsql
AS $function$
DECLARE
  world CONSTANT float8 := 40075016.685578488;
  origin CONSTANT float8 := -20037508.342789244;
  cells bigint;
BEGIN
  -- DELETE, not TRUNCATE: tiles being drawn meanwhile read the old cells instead of waiting.
  DELETE FROM coverage_cells;
  INSERT INTO coverage_cells (zoom, geom, count)
  SELECT 14, ST_SnapToGrid(ST_Transform(location, 3857), origin + world / (2 ^ 14 * 64) / 2, origin + world / (2 ^ 14 * 64) / 2,
                           world / (2 ^ 14 * 64), world / (2 ^ 14 * 64)), count(*)
  FROM imagery GROUP BY 2;
  FOR z IN REVERSE 13..0 LOOP
    INSERT INTO coverage_cells (zoom, geom, count)
    SELECT z, ST_SnapToGrid(geom, origin + world / (2 ^ z * 64) / 2, origin + world / (2 ^ z * 64) / 2,
                            world / (2 ^ z * 64), world / (2 ^ z * 64)), sum(count)
    FROM coverage_cells WHERE zoom = z + 1 GROUP BY 2;
  END LOOP;
  ANALYZE coverage_cells;
  SELECT count(*) INTO cells FROM coverage_cells;
  PERFORM lis_map_data_changed();
  RETURN cells;
END $function$;
