-- Function lis_unrank_deleted, as the migrations leave it (written by `npm run sql:functions`; change it in a migration).

CREATE OR REPLACE FUNCTION public.lis_unrank_deleted()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  DELETE FROM "imagery_word_ranks" r USING old_rows o WHERE r."imagery_id" = o."id";
  RETURN NULL;
END $function$;
