-- Function lis_add_word_counts, as the migrations leave it (written by `npm run sql:functions`; change it in a migration).

CREATE OR REPLACE FUNCTION public.lis_add_word_counts(removed tsvector[], added tsvector[])
 RETURNS void
 LANGUAGE plpgsql
AS $function$
BEGIN
  INSERT INTO "imagery_words" AS v ("word", "docs")
  SELECT w.word, sum(c.n)::int
  FROM (
    SELECT r.tsv, -1 FROM unnest(removed) AS r(tsv)
    UNION ALL
    SELECT a.tsv, 1 FROM unnest(added) AS a(tsv)
  ) AS c(tsv, n), unnest(tsvector_to_array(c.tsv)) AS w(word)
  WHERE lis_vocabulary_word(w.word)
  GROUP BY w.word
  HAVING sum(c.n) <> 0
  ORDER BY w.word
  ON CONFLICT ("word") DO UPDATE SET "docs" = greatest(v."docs" + EXCLUDED."docs", 0);
END $function$;
