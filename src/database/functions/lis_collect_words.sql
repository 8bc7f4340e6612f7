-- Function lis_collect_words, as the migrations leave it (written by `npm run sql:functions`; change it in a migration).

CREATE OR REPLACE FUNCTION public.lis_collect_words()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  INSERT INTO "imagery_words" AS v ("word", "docs")
  SELECT w.word, count(*)::int
  FROM new_rows r, unnest(tsvector_to_array(r."address_tsv")) AS w(word)
  WHERE lis_vocabulary_word(w.word)
  GROUP BY w.word
  ORDER BY w.word
  ON CONFLICT ("word") DO UPDATE SET "docs" = v."docs" + EXCLUDED."docs";
  RETURN NULL;
END $function$;
