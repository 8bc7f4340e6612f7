-- Function lis_build_word_ranks, as the migrations leave it (written by `npm run sql:functions`; change it in a migration).

CREATE OR REPLACE FUNCTION public.lis_build_word_ranks(terms text[], matches bigint[], list_size integer)
 RETURNS integer
 LANGUAGE plpgsql
AS $function$
DECLARE
  i INTEGER;
BEGIN
  DELETE FROM "imagery_word_ranks" r WHERE r."word" = ANY (terms);
  FOR i IN 1 .. coalesce(cardinality(terms), 0) LOOP
    INSERT INTO "imagery_word_ranks" ("word", "score", "imagery_id")
    SELECT terms[i], t.score, t.id
    FROM (
      SELECT c."id", lis_rank_score(c."address_norm", c."address_tsv", terms[i]) AS score
      FROM (
        SELECT m."id", m."address_norm", m."address_tsv"
        FROM "imagery" m
        WHERE m."address_tsv" @@ lis_term_tsquery(terms[i])
        ORDER BY starts_with(m."address_norm", rtrim(terms[i], '*')) DESC, length(m."address_norm"), m."id"
        LIMIT CASE WHEN matches[i] > list_size * 5 THEN list_size * 3 END
      ) c
      ORDER BY 2 DESC, 1
      LIMIT list_size
    ) t;
  END LOOP;
  INSERT INTO "imagery_word_lists" AS l ("word", "built_at")
  SELECT w.term, now() FROM unnest(terms) AS w(term)
  ON CONFLICT ("word") DO UPDATE SET "built_at" = EXCLUDED."built_at";
  RETURN cardinality(terms);
END $function$;
