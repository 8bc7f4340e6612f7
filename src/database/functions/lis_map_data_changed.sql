-- Function lis_map_data_changed, as the migrations leave it (written by `npm run sql:functions`; change it in a migration).

CREATE OR REPLACE FUNCTION public.lis_map_data_changed()
 RETURNS bigint
 LANGUAGE sql
AS $function$
  UPDATE map_data_version SET version = version + 1, changed_at = now() WHERE id = 1 RETURNING version
$function$;
