-- Ranked word lists: for every word in many addresses, and every short prefix whose matches spread
-- over many words, its best records in the order a search for it ranks them, so a one-word search
-- (what people have typed so far) reads the head of its page from a list instead of gathering and
-- scoring every record it matches. Adds three tables,
-- six functions and three triggers; drops no data. The lists are built by imports (see
-- lis_refresh_word_ranks), not here: an existing catalogue gets them at its next import (until then
-- its searches run as before).

-- One row per (term, record) in a term's list; a list holds the term's best records only. A term is
-- a word, or a prefix followed by '*' ("mar*"; vocabulary words hold letters only).
CREATE TABLE "imagery_word_ranks" (
  "word" TEXT NOT NULL,
  "score" REAL NOT NULL,
  "imagery_id" UUID NOT NULL
);
-- A list read best first (index-only); also the arbiter that makes merging a record twice a no-op.
CREATE UNIQUE INDEX "imagery_word_ranks_order_idx" ON "imagery_word_ranks" ("word", "score" DESC, "imagery_id");
-- A record's entries, for the triggers below.
CREATE INDEX "imagery_word_ranks_imagery_idx" ON "imagery_word_ranks" ("imagery_id");

-- The terms that have a list, and when it was last rebuilt from the whole catalogue.
CREATE TABLE "imagery_word_lists" (
  "word" TEXT NOT NULL PRIMARY KEY,
  "built_at" TIMESTAMPTZ NOT NULL
);

-- Records changed at or after `since` may be missing from the lists (one row, written by each refresh).
CREATE TABLE "imagery_word_ranks_state" (
  "id" BOOLEAN NOT NULL PRIMARY KEY DEFAULT true CHECK ("id"),
  "since" TIMESTAMPTZ NOT NULL
);

-- The score a search for the one word or prefix `term` gives an address (see fullTextSql in
-- src/search/sql/text-search.sql.ts, the same terms without the location-code bonus): trigram
-- similarity, +2 when the address is the word, +0.5 when it starts with it, +0.5 for holding it as a
-- whole word (every address in a word's list does).
CREATE FUNCTION "lis_rank_score"(address_norm TEXT, address_tsv TSVECTOR, term TEXT) RETURNS REAL
  LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT (similarity(address_norm, rtrim(term, '*'))
    + CASE WHEN address_norm = rtrim(term, '*') THEN 2 ELSE 0 END
    + CASE WHEN starts_with(address_norm, rtrim(term, '*')) THEN 0.5 ELSE 0 END
    + CASE WHEN right(term, 1) <> '*' OR address_tsv @@ to_tsquery('simple', quote_literal(rtrim(term, '*')))
        THEN 0.5 ELSE 0 END)::real
$$;

-- What a term matches: the word, or every word the prefix starts.
CREATE FUNCTION "lis_term_tsquery"(term TEXT) RETURNS TSQUERY
  LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT to_tsquery('simple', quote_literal(rtrim(term, '*')) || CASE WHEN right(term, 1) = '*' THEN ':*' ELSE '' END)
$$;

-- Every entry is true: a deleted record leaves its lists, a record whose address changed leaves
-- them (the next refresh puts it back where it now belongs). Lists only miss records imported since
-- their last refresh, which imports run when they end.
CREATE FUNCTION "lis_unrank_deleted"() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "imagery_word_ranks" r USING old_rows o WHERE r."imagery_id" = o."id";
  RETURN NULL;
END $$;

CREATE FUNCTION "lis_unrank_readdressed"() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "imagery_word_ranks" r
  USING old_rows o JOIN new_rows n ON n."id" = o."id" AND o."address_tsv" IS DISTINCT FROM n."address_tsv"
  WHERE r."imagery_id" = o."id";
  RETURN NULL;
END $$;

-- Emptying the catalogue (TRUNCATE, which fires no row triggers) empties the lists, as it empties
-- the vocabulary (imagery_words_on_truncate); the next refresh starts from nothing.
CREATE FUNCTION "lis_unrank_all"() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  TRUNCATE "imagery_word_ranks", "imagery_word_lists", "imagery_word_ranks_state";
  RETURN NULL;
END $$;

CREATE TRIGGER "imagery_word_ranks_on_truncate" AFTER TRUNCATE ON "imagery"
  FOR EACH STATEMENT EXECUTE FUNCTION "lis_unrank_all"();
CREATE TRIGGER "imagery_word_ranks_on_delete" AFTER DELETE ON "imagery"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "lis_unrank_deleted"();
CREATE TRIGGER "imagery_word_ranks_on_update" AFTER UPDATE ON "imagery"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "lis_unrank_readdressed"();

-- Brings the lists up to date with the records changed since the last refresh (the first refresh
-- rebuilds every list); imports call it when they end. The next refresh starts from the start of the
-- oldest transaction running now: a record written by one of them is stamped (updated_at = now())
-- no earlier than that, and one committed before is seen by this one.
-- Terms with lists: words in at least min_docs addresses (a word's list goes when it falls below
-- half that, so a word near the line is not rebuilt at every import), and prefixes of 3 to 5 letters
-- in at least prefix_min addresses whose commonest word holds less than a third of them (the
-- others are served by their words' lists). A list holds the term's best list_size records. A term
-- in up to list_size * 5 addresses is built by scoring them all; a commoner one from its
-- list_size * 3 shortest addresses (and those starting with it), scored exactly: similarity is about
-- the share of the address's trigrams that are the term's, so the shortest addresses hold nearly all
-- the best (not all: an address repeating a word is long for its trigrams). Other lists merge the changed records that match their term and
-- keep their best list_size. When a tenth of the catalogue or more changed, every list is rebuilt
-- instead: merging would score as many records with no shortlist. Refreshes run one at a time.
-- Returns the lists rebuilt and the lists that merged records.
CREATE FUNCTION "lis_refresh_word_ranks"(min_docs INTEGER, prefix_min INTEGER, list_size INTEGER)
  RETURNS TABLE (rebuilt INTEGER, merged INTEGER)
  LANGUAGE plpgsql AS $$
DECLARE
  since TIMESTAMPTZ;
  changed BIGINT;
  total BIGINT;
  rebuild TEXT[];
  touched TEXT[];
BEGIN
  PERFORM pg_advisory_xact_lock(hashtext('lis_refresh_word_ranks'));
  SELECT s."since" INTO since FROM "imagery_word_ranks_state" s;
  INSERT INTO "imagery_word_ranks_state" AS s ("id", "since")
  SELECT true, least(now(), min(a."xact_start")) FROM pg_stat_activity a WHERE a."datname" = current_database()
  ON CONFLICT ("id") DO UPDATE SET "since" = EXCLUDED."since";

  -- The terms that should have a list (listed), and those whose list may stay (kept).
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

  SELECT count(*) FILTER (WHERE since IS NULL OR i."updated_at" >= since), count(*)
  INTO changed, total FROM "imagery" i;

  -- Terms without a full list (new, or short after deletions; a term in fewer addresses than
  -- list_size has them all), or every term.
  SELECT coalesce(array_agg(t.term ORDER BY t.term), '{}') INTO rebuild
  FROM lis_rank_terms t
  LEFT JOIN (SELECT r."word", count(*) AS n FROM "imagery_word_ranks" r GROUP BY r."word") r ON r."word" = t.term
  WHERE t.listed AND (changed * 10 >= total OR coalesce(r.n, 0) < least(list_size, t.matches));

  DELETE FROM "imagery_word_ranks" r WHERE r."word" = ANY (rebuild);
  INSERT INTO "imagery_word_ranks" ("word", "score", "imagery_id")
  SELECT w.term, t.score, t.id
  FROM unnest(rebuild) AS w(term)
  JOIN lis_rank_terms m ON m.term = w.term
  CROSS JOIN LATERAL (
    SELECT c."id", lis_rank_score(c."address_norm", c."address_tsv", w.term) AS score
    FROM (
      SELECT i."id", i."address_norm", i."address_tsv"
      FROM "imagery" i
      WHERE i."address_tsv" @@ lis_term_tsquery(w.term)
      ORDER BY starts_with(i."address_norm", rtrim(w.term, '*')) DESC, length(i."address_norm"), i."id"
      LIMIT CASE WHEN m.matches > list_size * 5 THEN list_size * 3 END
    ) c
    ORDER BY 2 DESC, 1
    LIMIT list_size
  ) t;
  INSERT INTO "imagery_word_lists" AS l ("word", "built_at")
  SELECT w.term, now() FROM unnest(rebuild) AS w(term)
  ON CONFLICT ("word") DO UPDATE SET "built_at" = EXCLUDED."built_at";

  IF changed > 0 AND changed * 10 < total THEN
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
      WHERE i."updated_at" >= since AND NOT (k.term = ANY (rebuild))
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
  ELSE
    touched := '{}';
  END IF;

  RETURN QUERY SELECT cardinality(rebuild), cardinality(touched);
END $$;
