-- Ranked word lists refreshed in three parts, so the builds can run on several connections at once
-- (a first build of every list took 15 s at 1M records on one connection while the other core idled,
-- about 7 minutes at 10M): lis_plan_word_ranks says which lists to rebuild, lis_build_word_ranks
-- rebuilds some of them (one transaction per call; callers spread the terms over connections), and
-- lis_merge_word_ranks merges the records changed since the last refresh into the other lists and
-- only then moves the state on, so a refresh cut off part-way is finished by the next one (a list
-- rebuilt is complete; merging twice is a no-op). The rules are those of lis_refresh_word_ranks (the
-- ranked_word_lists migration), which this replaces; the caller holds the advisory lock that kept
-- refreshes one at a time (RankedWordListsRepository). Drops one function; no data.
DROP FUNCTION "lis_refresh_word_ranks"(INTEGER, INTEGER, INTEGER);

-- The terms that should have a list and lack a full one (or every term, when a tenth of the catalogue
-- or more changed), with their match counts; drops the lists of terms that should no longer have one.
-- since_old: the state now (null before the first refresh); since_next: what lis_merge_word_ranks
-- writes when done (the start of the oldest transaction running now: a record it writes is stamped
-- no earlier, and one committed before is seen by the merge); merge: whether changed records are
-- merged (not when every list is rebuilt).
CREATE FUNCTION "lis_plan_word_ranks"(min_docs INTEGER, prefix_min INTEGER, list_size INTEGER)
  RETURNS TABLE (since_old TIMESTAMPTZ, since_next TIMESTAMPTZ, merge BOOLEAN, terms TEXT[], matches BIGINT[])
  LANGUAGE plpgsql AS $$
DECLARE
  changed BIGINT;
  total BIGINT;
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

  WITH gone AS (
    DELETE FROM "imagery_word_lists" l WHERE NOT EXISTS (SELECT 1 FROM lis_rank_terms t WHERE t.term = l."word")
    RETURNING l."word"
  )
  DELETE FROM "imagery_word_ranks" r USING gone g WHERE r."word" = g."word";

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

-- Rebuilds the lists of `terms` (matches: each term's match count, from lis_plan_word_ranks) from the
-- whole catalogue, each with its best list_size records. A term in up to list_size * 5 addresses is
-- built by scoring them all; a commoner one from its list_size * 3 shortest addresses (and those
-- starting with it), scored exactly: similarity is about the share of the address's trigrams that
-- are the term's, so the shortest addresses hold nearly all the best (not all: an address repeating
-- a word is long for its trigrams). Returns the lists built.
CREATE FUNCTION "lis_build_word_ranks"(terms TEXT[], matches BIGINT[], list_size INTEGER)
  RETURNS INTEGER
  LANGUAGE plpgsql AS $$
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
END $$;

-- Merges the records changed since since_old that match a listed term (but those of `rebuilt`, built
-- from everything just now) into its list, keeping its best list_size; then moves the state to
-- since_next. Returns the lists that merged records.
CREATE FUNCTION "lis_merge_word_ranks"(since_old TIMESTAMPTZ, since_next TIMESTAMPTZ, merge BOOLEAN, rebuilt TEXT[], list_size INTEGER)
  RETURNS INTEGER
  LANGUAGE plpgsql AS $$
DECLARE
  touched TEXT[] := '{}';
BEGIN
  IF merge THEN
    WITH added AS (
      INSERT INTO "imagery_word_ranks" ("word", "score", "imagery_id")
      SELECT k.term, lis_rank_score(i."address_norm", i."address_tsv", k.term), i."id"
      FROM "imagery" i
      CROSS JOIN LATERAL (
        SELECT DISTINCT x.term
        FROM unnest(tsvector_to_array(i."address_tsv")) AS w(word),
             LATERAL (SELECT w.word UNION ALL SELECT left(w.word, n) || '*' FROM generate_series(3, least(5, length(w.word))) AS n) x(term)
      ) k
      JOIN "imagery_word_lists" l ON l."word" = k.term
      WHERE i."updated_at" >= since_old AND NOT (k.term = ANY (rebuilt))
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
