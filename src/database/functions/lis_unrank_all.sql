-- Function lis_unrank_all, as the migrations leave it (written by `npm run sql:functions`; change it in a migration).

CREATE OR REPLACE FUNCTION public.lis_unrank_all()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  TRUNCATE "imagery_word_ranks", "imagery_word_lists", "imagery_word_ranks_state";
  RETURN NULL;
END $function$;
