-- Ranked word lists: for every word in many addresses, its best records in the order a search for
-- that word ranks them, so a one-word search (what people have typed so far) reads the head of its
-- page from a list instead of gathering and scoring every record the word matches. Adds three tables,
-- four functions and three triggers; drops no data. The lists are built by imports (see
-- lis_refresh_word_ranks), not here: an existing catalogue gets them at its next import (until then
-- its searches run as before).

-- One row per (word, record) in a word's list; a list holds the word's best records only.
CREATE TABLE "imagery_word_ranks" (
  "word" TEXT NOT NULL,
  "score" REAL NOT NULL,
  "imagery_id" UUID NOT NULL
);
-- A list read best first (index-only); also the arbiter that makes merging a record twice a no-op.
CREATE UNIQUE INDEX "imagery_word_ranks_order_idx" ON "imagery_word_ranks" ("word", "score" DESC, "imagery_id");
-- A record's entries, for the triggers below.
CREATE INDEX "imagery_word_ranks_imagery_idx" ON "imagery_word_ranks" ("imagery_id");

-- The words that have a list, and when it was last rebuilt from the whole catalogue.
CREATE TABLE "imagery_word_lists" (
  "word" TEXT NOT NULL PRIMARY KEY,
  "built_at" TIMESTAMPTZ NOT NULL
);

-- Records changed at or after `since` may be missing from the lists (one row, written by each refresh).
CREATE TABLE "imagery_word_ranks_state" (
  "id" BOOLEAN NOT NULL PRIMARY KEY DEFAULT true CHECK ("id"),
  "since" TIMESTAMPTZ NOT NULL
);

-- The score a search for the one word `word` gives an address (see fullTextSql in
-- src/search/sql/text-search.sql.ts, the same terms without the location-code bonus): trigram
-- similarity, +2 when the address is the word, +0.5 when it starts with it, +0.5 for holding the
-- word whole (every listed address does).
CREATE FUNCTION "lis_word_rank_score"(address_norm TEXT, word TEXT) RETURNS REAL
  LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT (similarity(address_norm, word)
    + CASE WHEN address_norm = word THEN 2 ELSE 0 END
    + CASE WHEN starts_with(address_norm, word) THEN 0.5 ELSE 0 END
    + 0.5)::real
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
-- Words in at least min_docs addresses get a list of their best list_size records; a list goes when
-- its word falls below half that (so a word near the line is not rebuilt at every import). A list is
-- built from the word's list_size * 3 shortest addresses (and those starting with the word), scored
-- exactly: similarity is the share of the address's trigrams that are the word's, so the shortest
-- addresses hold the best. Other lists merge the changed records that hold their word and keep their
-- best list_size. When a tenth of the catalogue or more changed, every list is rebuilt instead:
-- merging would score as many records with no shortlist. Refreshes run one at a time.
-- Returns the lists rebuilt and the lists that merged records.
CREATE FUNCTION "lis_refresh_word_ranks"(min_docs INTEGER, list_size INTEGER)
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

  WITH gone AS (
    DELETE FROM "imagery_word_lists" l
    WHERE NOT EXISTS (SELECT 1 FROM "imagery_words" v WHERE v."word" = l."word" AND v."docs" >= min_docs / 2)
    RETURNING l."word"
  )
  DELETE FROM "imagery_word_ranks" r USING gone g WHERE r."word" = g."word";

  SELECT count(*) FILTER (WHERE since IS NULL OR i."updated_at" >= since), count(*)
  INTO changed, total FROM "imagery" i;

  -- Common words without a full list (new, or short after deletions; a word in fewer addresses than
-- list_size has them all), or every common word.
  SELECT coalesce(array_agg(v."word" ORDER BY v."word"), '{}') INTO rebuild
  FROM "imagery_words" v
  LEFT JOIN (SELECT r."word", count(*) AS n FROM "imagery_word_ranks" r GROUP BY r."word") r ON r."word" = v."word"
  WHERE v."docs" >= min_docs AND (changed * 10 >= total OR coalesce(r.n, 0) < least(list_size, v."docs"));

  DELETE FROM "imagery_word_ranks" r WHERE r."word" = ANY (rebuild);
  INSERT INTO "imagery_word_ranks" ("word", "score", "imagery_id")
  SELECT w.word, t.score, t.id
  FROM unnest(rebuild) AS w(word)
  CROSS JOIN LATERAL (
    SELECT c."id", lis_word_rank_score(c."address_norm", w.word) AS score
    FROM (
      SELECT i."id", i."address_norm"
      FROM "imagery" i
      WHERE i."address_tsv" @@ to_tsquery('simple', quote_literal(w.word))
      ORDER BY starts_with(i."address_norm", w.word) DESC, length(i."address_norm"), i."id"
      LIMIT list_size * 3
    ) c
    ORDER BY 2 DESC, 1
    LIMIT list_size
  ) t;
  INSERT INTO "imagery_word_lists" AS l ("word", "built_at")
  SELECT w.word, now() FROM unnest(rebuild) AS w(word)
  ON CONFLICT ("word") DO UPDATE SET "built_at" = EXCLUDED."built_at";

  IF changed > 0 AND changed * 10 < total THEN
    WITH added AS (
      INSERT INTO "imagery_word_ranks" ("word", "score", "imagery_id")
      SELECT w.word, lis_word_rank_score(i."address_norm", w.word), i."id"
      FROM "imagery" i
      CROSS JOIN unnest(tsvector_to_array(i."address_tsv")) AS w(word)
      JOIN "imagery_word_lists" l ON l."word" = w.word
      WHERE i."updated_at" >= since AND NOT (w.word = ANY (rebuild))
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
