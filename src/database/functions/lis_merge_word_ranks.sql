-- Function lis_merge_word_ranks, as the migrations leave it (written by `npm run sql:functions`; change it in a migration).

CREATE OR REPLACE FUNCTION public.lis_merge_word_ranks(since_old timestamp with time zone, since_next timestamp with time zone, merge boolean, rebuilt text[], list_size integer)
 RETURNS integer
 LANGUAGE plpgsql
AS $function$
DECLARE
  touched TEXT[] := '{}';
BEGIN
  IF merge THEN
    CREATE TEMP TABLE IF NOT EXISTS lis_rank_changed (id UUID NOT NULL, address_norm TEXT, address_tsv TSVECTOR)
      ON COMMIT DROP;
    TRUNCATE lis_rank_changed;
    INSERT INTO lis_rank_changed
    SELECT i."id", i."address_norm", i."address_tsv" FROM "imagery" i WHERE i."updated_at" >= since_old;

    WITH added AS (
      INSERT INTO "imagery_word_ranks" ("word", "score", "imagery_id")
      SELECT k.term, lis_rank_score(i.address_norm, i.address_tsv, k.term), i.id
      FROM lis_rank_changed i
      CROSS JOIN LATERAL (
        SELECT DISTINCT x.term
        FROM unnest(tsvector_to_array(i.address_tsv)) AS w(word),
             LATERAL (SELECT w.word UNION ALL SELECT left(w.word, n) || '*' FROM generate_series(3, least(5, length(w.word))) AS n) x(term)
      ) k
      JOIN "imagery_word_lists" l ON l."word" = k.term
      WHERE NOT (k.term = ANY (rebuilt))
      ON CONFLICT DO NOTHING
      RETURNING "word"
    )
    SELECT coalesce(array_agg(DISTINCT a."word"), '{}') INTO touched FROM added a;

    DELETE FROM "imagery_word_ranks" r
    USING (
      SELECT x."word", x."score", x."imagery_id",
             row_number() OVER (PARTITION BY x."word" ORDER BY x."score" DESC, x."imagery_id") AS n
      FROM "imagery_word_ranks" x WHERE x."word" = ANY (touched)
    ) k
    WHERE k.n > list_size AND r."word" = k."word" AND r."score" = k."score" AND r."imagery_id" = k."imagery_id";
  END IF;

  INSERT INTO "imagery_word_ranks_state" AS s ("id", "since") VALUES (true, since_next)
  ON CONFLICT ("id") DO UPDATE SET "since" = EXCLUDED."since";
  RETURN cardinality(touched);
END $function$;
