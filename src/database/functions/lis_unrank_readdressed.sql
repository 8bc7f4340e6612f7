-- Function lis_unrank_readdressed, as the migrations leave it (written by `npm run sql:functions`; change it in a migration).

CREATE OR REPLACE FUNCTION public.lis_unrank_readdressed()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  EXECUTE $sql$
    DELETE FROM "imagery_word_ranks" r
    USING old_rows o JOIN new_rows n ON n."id" = o."id" AND o."address_tsv" IS DISTINCT FROM n."address_tsv"
    WHERE r."imagery_id" = o."id"
  $sql$;
  RETURN NULL;
END $function$;
