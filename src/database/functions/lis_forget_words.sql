-- Function lis_forget_words, as the migrations leave it (written by `npm run sql:functions`; change it in a migration).

CREATE OR REPLACE FUNCTION public.lis_forget_words()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  INSERT INTO "imagery_words" AS v ("word", "docs")
  SELECT w.word, -count(*)::int
  FROM old_rows r, unnest(tsvector_to_array(r."address_tsv")) AS w(word)
  WHERE lis_vocabulary_word(w.word)
  GROUP BY w.word
  ORDER BY w.word
  ON CONFLICT ("word") DO UPDATE SET "docs" = greatest(v."docs" + EXCLUDED."docs", 0);
  RETURN NULL;
END $function$;
