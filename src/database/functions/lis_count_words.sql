-- Function lis_count_words, as the migrations leave it (written by `npm run sql:functions`; change it in a migration).

CREATE OR REPLACE FUNCTION public.lis_count_words()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM lis_add_word_counts('{}', ARRAY(SELECT r."address_tsv" FROM new_rows r));
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM lis_add_word_counts(ARRAY(SELECT o."address_tsv" FROM old_rows o), '{}');
  ELSE
    EXECUTE $sql$
      SELECT lis_add_word_counts(
        ARRAY(SELECT o."address_tsv"
              FROM old_rows o JOIN new_rows r ON r."id" = o."id" AND o."address_tsv" IS DISTINCT FROM r."address_tsv"),
        ARRAY(SELECT r."address_tsv"
              FROM new_rows r JOIN old_rows o ON o."id" = r."id" AND o."address_tsv" IS DISTINCT FROM r."address_tsv"))
    $sql$;
  END IF;
  RETURN NULL;
END $function$;
