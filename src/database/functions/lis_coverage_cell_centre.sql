-- Function lis_coverage_cell_centre, as the migrations leave it (written by `npm run sql:functions`; change it in a migration).

CREATE OR REPLACE FUNCTION public.lis_coverage_cell_centre(z integer, cx integer, cy integer)
 RETURNS geometry
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
AS $function$
  SELECT ST_Point(cx * (40075016.685578488::float8 / (2 ^ z * 64))
                    + (-20037508.342789244::float8 + 40075016.685578488::float8 / (2 ^ z * 64) / 2),
                  (2 ^ z * 64 - 1 - cy) * (40075016.685578488::float8 / (2 ^ z * 64))
                    + (-20037508.342789244::float8 + 40075016.685578488::float8 / (2 ^ z * 64) / 2), 3857)
$function$;
