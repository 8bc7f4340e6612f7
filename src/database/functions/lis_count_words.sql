-- Function lis_count_words, as the migrations leave it (written by `npm run sql:functions`; change it in a migration).

CREATE OR REPLACE FUNCTION public.lis_count_words()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
DECLARE
  changed TEXT := CASE TG_OP
    WHEN 'INSERT' THEN 'SELECT r."address_tsv", 1 FROM new_rows r'
    WHEN 'DELETE' THEN 'SELECT o."address_tsv", -1 FROM old_rows o'
    ELSE 'SELECT r."address_tsv", 1
          FROM new_rows r JOIN old_rows o ON o."id" = r."id" AND o."address_tsv" IS DISTINCT FROM r."address_tsv"
          UNION ALL
          SELECT o."address_tsv", -1
          FROM old_rows o JOIN new_rows r ON r."id" = o."id" AND o."address_tsv" IS DISTINCT FROM r."address_tsv"'
  END;
BEGIN
  EXECUTE format($sql$
    INSERT INTO "imagery_words" AS v ("word", "docs")
    SELECT w.word, sum(c.n)::int
    FROM (%s) AS c(tsv, n), unnest(tsvector_to_array(c.tsv)) AS w(word)
    WHERE lis_vocabulary_word(w.word)
    GROUP BY w.word
    HAVING sum(c.n) <> 0
    ORDER BY w.word
    ON CONFLICT ("word") DO UPDATE SET "docs" = greatest(v."docs" + EXCLUDED."docs", 0)$sql$, changed);
  RETURN NULL;
END $function$;
