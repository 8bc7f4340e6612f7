-- Function lis_coverage_cell, as the migrations leave it (written by `npm run sql:functions`; change it in a migration).

CREATE OR REPLACE FUNCTION public.lis_coverage_cell(z integer, x double precision, y double precision)
 RETURNS lis_coverage_cell_xy
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
AS $function$
  SELECT ROW(floor((x - -20037508.342789244::float8) / (40075016.685578488::float8 / (2 ^ z * 64)))::int,
             floor((20037508.342789244::float8 - y) / (40075016.685578488::float8 / (2 ^ z * 64)))::int)::lis_coverage_cell_xy
$function$;
