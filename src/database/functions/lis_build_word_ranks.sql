-- Function lis_build_word_ranks, as the migrations leave it (written by `npm run sql:functions`; change it in a migration).

CREATE OR REPLACE FUNCTION public.lis_build_word_ranks(terms text[], matches bigint[], list_size integer)
 RETURNS integer
 LANGUAGE plpgsql
AS $function$
BEGIN
  DELETE FROM "imagery_word_ranks" r WHERE r."word" = ANY (terms);
  INSERT INTO "imagery_word_ranks" ("word", "score", "imagery_id")
  SELECT w.term, t.score, t.id
  FROM unnest(terms, matches) AS w(term, matches)
  CROSS JOIN LATERAL (
    SELECT c."id", lis_rank_score(c."address_norm", c."address_tsv", w.term) AS score
    FROM (
      SELECT i."id", i."address_norm", i."address_tsv"
      FROM "imagery" i
      WHERE i."address_tsv" @@ lis_term_tsquery(w.term)
      ORDER BY starts_with(i."address_norm", rtrim(w.term, '*')) DESC, length(i."address_norm"), i."id"
      LIMIT CASE WHEN w.matches > list_size * 5 THEN list_size * 3 END
    ) c
    ORDER BY 2 DESC, 1
    LIMIT list_size
  ) t;
  INSERT INTO "imagery_word_lists" AS l ("word", "built_at")
  SELECT w.term, now() FROM unnest(terms) AS w(term)
  ON CONFLICT ("word") DO UPDATE SET "built_at" = EXCLUDED."built_at";
  RETURN cardinality(terms);
END $function$;
