-- Search understanding: location codes, a word vocabulary for typo correction, nearest-first
-- spatial search and date ordering. Adds a column, a table, indexes and triggers; drops no data.

-- Addresses that are identifiers (LI-9490-35, ZRH, 9490): letters and digits in groups separated by
-- - _ . / or spaces, and either no lower-case letter or no space plus a digit. Stored lower-cased
-- without separators so "li 9490 35" finds "LI-9490-35"; NULL for ordinary addresses.
ALTER TABLE "imagery" ADD COLUMN "address_code" TEXT GENERATED ALWAYS AS (
  CASE
    WHEN length("address") <= 64
     AND "address" ~ '^[A-Za-z0-9]+([-_./ ][A-Za-z0-9]+)*$'
     AND ("address" !~ '[a-z]' OR ("address" !~ ' ' AND "address" ~ '[0-9]'))
    THEN lower(regexp_replace("address", '[^A-Za-z0-9]', '', 'g'))
  END
) STORED;

CREATE INDEX "imagery_address_code_idx" ON "imagery" ("address_code") WHERE "address_code" IS NOT NULL;

-- Nearest-first ordering in metres (KNN <-> on geography) and metre cut-offs (ST_DWithin on geography).
-- Radius filters themselves use the box around the circle on the existing geometry index.
CREATE INDEX "imagery_location_geog_idx" ON "imagery" USING GIST (("location"::geography));

-- newest / oldest ordering when the spatial filter is wide.
CREATE INDEX "imagery_captured_at_idx" ON "imagery" ("captured_at", "id");

-- Every word (letters only, 3+ characters) that occurs in an address, for typo correction: a
-- misspelt query word is matched to its nearest vocabulary words (trigram KNN, then edit distance).
CREATE TABLE "imagery_words" (
  "word" TEXT NOT NULL,
  CONSTRAINT "imagery_words_pkey" PRIMARY KEY ("word")
);

CREATE INDEX "imagery_words_trgm_idx" ON "imagery_words" USING GIST ("word" gist_trgm_ops);

-- Kept in step by statement-level triggers (one INSERT per import batch, not per row; the length
-- test plus a negated class is several times cheaper than an anchored {3,64} pattern). Words are
-- inserted in sorted order so concurrent imports cannot deadlock on each other's words. Words whose
-- last address is replaced stay (they then match nothing); TRUNCATE imagery empties the vocabulary.
CREATE OR REPLACE FUNCTION "lis_collect_words"() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "imagery_words" ("word")
  SELECT DISTINCT w.word
  FROM new_rows r, unnest(tsvector_to_array(r."address_tsv")) AS w(word)
  WHERE length(w.word) BETWEEN 3 AND 64 AND w.word !~ '[^[:alpha:]]'
  ORDER BY w.word
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION "lis_clear_words"() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  TRUNCATE "imagery_words";
  RETURN NULL;
END $$;

CREATE TRIGGER "imagery_words_on_insert" AFTER INSERT ON "imagery"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "lis_collect_words"();
CREATE TRIGGER "imagery_words_on_update" AFTER UPDATE ON "imagery"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "lis_collect_words"();
CREATE TRIGGER "imagery_words_on_truncate" AFTER TRUNCATE ON "imagery"
  FOR EACH STATEMENT EXECUTE FUNCTION "lis_clear_words"();

-- Words of the catalogue as it is now.
INSERT INTO "imagery_words" ("word")
SELECT DISTINCT w.word
FROM "imagery" r, unnest(tsvector_to_array(r."address_tsv")) AS w(word)
WHERE length(w.word) BETWEEN 3 AND 64 AND w.word !~ '[^[:alpha:]]'
ORDER BY w.word
ON CONFLICT DO NOTHING;
