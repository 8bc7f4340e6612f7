-- Function lis_recount_words, as the migrations leave it (written by `npm run sql:functions`; change it in a migration).

CREATE OR REPLACE FUNCTION public.lis_recount_words()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  INSERT INTO "imagery_words" AS v ("word", "docs")
  SELECT d.word, sum(d.n)::int
  FROM (
    SELECT w.word, 1 AS n
    FROM new_rows r JOIN old_rows o ON o."id" = r."id" AND o."address_tsv" IS DISTINCT FROM r."address_tsv",
         unnest(tsvector_to_array(r."address_tsv")) AS w(word)
    UNION ALL
    SELECT w.word, -1
    FROM old_rows o JOIN new_rows r ON r."id" = o."id" AND o."address_tsv" IS DISTINCT FROM r."address_tsv",
         unnest(tsvector_to_array(o."address_tsv")) AS w(word)
  ) d
  WHERE lis_vocabulary_word(d.word)
  GROUP BY d.word
  HAVING sum(d.n) <> 0
  ORDER BY d.word
  ON CONFLICT ("word") DO UPDATE SET "docs" = greatest(v."docs" + EXCLUDED."docs", 0);
  RETURN NULL;
END $function$;
