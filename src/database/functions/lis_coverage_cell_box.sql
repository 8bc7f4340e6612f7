-- Function lis_coverage_cell_box, as the migrations leave it (written by `npm run sql:functions`; change it in a migration).

CREATE OR REPLACE FUNCTION public.lis_coverage_cell_box(z integer, cx integer, cy integer)
 RETURNS geometry
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
AS $function$
  SELECT ST_Expand(ST_MakeEnvelope(-20037508.342789244 + cx * s, 20037508.342789244 - (cy + 1) * s,
                                   -20037508.342789244 + (cx + 1) * s, 20037508.342789244 - cy * s, 3857), s / 64)
  FROM (SELECT 40075016.685578488::float8 / (2 ^ z * 64) AS s) g
$function$;
