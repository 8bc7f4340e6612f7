-- The ranked word lists' refresh in statements a Citus coordinator plans where imagery is distributed
-- (docs/scaling.md#citus), the same on one server: the same lists, terms and scores. Replaces three
-- functions; changes no data.
--  - lis_plan_word_ranks: the lists no longer wanted are gathered into an array first (Citus plans no
--    DELETE of a reference table correlated with a temporary table).
--  - lis_build_word_ranks: one statement per term (Citus pushes no LIMIT into a LATERAL subquery over a
--    distributed table that reads a column of unnest()).
--  - lis_merge_word_ranks: the records changed since the last refresh are copied from imagery first (the
--    merge runs only when they are under a tenth of the catalogue), and their terms are read from that
--    copy (Citus plans no UNION ALL subquery without FROM in a LATERAL over a distributed table).

CREATE OR REPLACE FUNCTION "lis_plan_word_ranks"(min_docs INTEGER, prefix_min INTEGER, list_size INTEGER)
  RETURNS TABLE (since_old TIMESTAMPTZ, since_next TIMESTAMPTZ, merge BOOLEAN, terms TEXT[], matches BIGINT[])
  LANGUAGE plpgsql AS $$
DECLARE
  changed BIGINT;
  total BIGINT;
  gone TEXT[];
BEGIN
  SELECT s."since" INTO since_old FROM "imagery_word_ranks_state" s;
  SELECT least(now(), min(a."xact_start")) INTO since_next FROM pg_stat_activity a WHERE a."datname" = current_database();

  CREATE TEMP TABLE IF NOT EXISTS lis_rank_terms (term TEXT PRIMARY KEY, matches BIGINT NOT NULL, listed BOOLEAN NOT NULL)
    ON COMMIT DROP;
  TRUNCATE lis_rank_terms;
  INSERT INTO lis_rank_terms
  SELECT v."word", v."docs", v."docs" >= min_docs FROM "imagery_words" v WHERE v."docs" >= min_docs / 2
  UNION ALL
  SELECT p.prefix || '*', p.matches, true
  FROM (
    SELECT left(v."word", n) AS prefix, sum(v."docs") AS matches, max(v."docs") AS commonest
    FROM "imagery_words" v, generate_series(3, 5) AS n
    WHERE length(v."word") >= n AND v."docs" > 0
    GROUP BY 1
  ) p
  WHERE p.matches >= prefix_min AND p.commonest * 3 < p.matches;

  SELECT coalesce(array_agg(l."word"), '{}') INTO gone
  FROM "imagery_word_lists" l WHERE NOT EXISTS (SELECT 1 FROM lis_rank_terms t WHERE t.term = l."word");
  DELETE FROM "imagery_word_lists" l WHERE l."word" = ANY (gone);
  DELETE FROM "imagery_word_ranks" r WHERE r."word" = ANY (gone);

  SELECT count(*) FILTER (WHERE since_old IS NULL OR i."updated_at" >= since_old), count(*)
  INTO changed, total FROM "imagery" i;
  merge := changed > 0 AND changed * 10 < total;

  -- A term in fewer addresses than list_size has them all: shorter than that, a list is not full.
  SELECT coalesce(array_agg(t.term ORDER BY t.matches DESC, t.term), '{}'),
         coalesce(array_agg(t.matches ORDER BY t.matches DESC, t.term), '{}')
  INTO terms, matches
  FROM lis_rank_terms t
  LEFT JOIN (SELECT r."word", count(*) AS n FROM "imagery_word_ranks" r GROUP BY r."word") r ON r."word" = t.term
  WHERE t.listed AND (changed * 10 >= total OR coalesce(r.n, 0) < least(list_size, t.matches));
  RETURN NEXT;
END $$;

CREATE OR REPLACE FUNCTION "lis_build_word_ranks"(terms TEXT[], matches BIGINT[], list_size INTEGER)
  RETURNS INTEGER LANGUAGE plpgsql AS $$
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
END $$;

CREATE OR REPLACE FUNCTION "lis_merge_word_ranks"(since_old TIMESTAMPTZ, since_next TIMESTAMPTZ, merge BOOLEAN, rebuilt TEXT[], list_size INTEGER)
  RETURNS INTEGER LANGUAGE plpgsql AS $$
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
END $$;
