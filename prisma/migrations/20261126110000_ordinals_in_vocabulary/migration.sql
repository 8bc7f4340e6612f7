-- Ordinals in the vocabulary: "35th", "1st", "22nd" (digits then st, nd, rd or th) are words people
-- type as they type letters ("35th Street", "4th Av"), and a word the vocabulary lacks is searched
-- without an estimate or a ranked list: `35th`, 2,627 addresses at 1M records, read and scored every
-- match (15 ms). House numbers and postcodes stay out (numbers only, or letters and digits otherwise
-- mixed). One rule, lis_vocabulary_word, for the three triggers that keep the counts; the counts of
-- the ordinals the catalogue holds now are added here (ts_stat: one pass over the column, about 10 s
-- at 1,000,000 records). Adds one function; drops no data.
CREATE FUNCTION "lis_vocabulary_word"(word TEXT) RETURNS BOOLEAN
  LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT length(word) BETWEEN 3 AND 64 AND (word !~ '[^[:alpha:]]' OR word ~ '^[0-9]+(st|nd|rd|th)$')
$$;

CREATE OR REPLACE FUNCTION "lis_collect_words"() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "imagery_words" AS v ("word", "docs")
  SELECT w.word, count(*)::int
  FROM new_rows r, unnest(tsvector_to_array(r."address_tsv")) AS w(word)
  WHERE lis_vocabulary_word(w.word)
  GROUP BY w.word
  ORDER BY w.word
  ON CONFLICT ("word") DO UPDATE SET "docs" = v."docs" + EXCLUDED."docs";
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION "lis_recount_words"() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "imagery_words" AS v ("word", "docs")
  SELECT d.word, sum(d.n)::int
  FROM (
    SELECT w.word, 1 AS n
    FROM new_rows r JOIN old_rows o ON o."id" = r."id" AND o."address_tsv" IS DISTINCT FROM r."address_tsv",
         unnest(tsvector_to_array(r."address_tsv")) AS w(word)
    UNION ALL
    SELECT w.word, -1
    FROM old_rows o JOIN new_rows r ON r."id" = o."id" AND o."address_tsv" IS DISTINCT FROM r."address_tsv",
         unnest(tsvector_to_array(o."address_tsv")) AS w(word)
  ) d
  WHERE lis_vocabulary_word(d.word)
  GROUP BY d.word
  HAVING sum(d.n) <> 0
  ORDER BY d.word
  ON CONFLICT ("word") DO UPDATE SET "docs" = greatest(v."docs" + EXCLUDED."docs", 0);
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION "lis_forget_words"() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "imagery_words" AS v ("word", "docs")
  SELECT w.word, -count(*)::int
  FROM old_rows r, unnest(tsvector_to_array(r."address_tsv")) AS w(word)
  WHERE lis_vocabulary_word(w.word)
  GROUP BY w.word
  ORDER BY w.word
  ON CONFLICT ("word") DO UPDATE SET "docs" = greatest(v."docs" + EXCLUDED."docs", 0);
  RETURN NULL;
END $$;

-- The ordinals of the catalogue as it is now (letters-only words were already counted).
INSERT INTO "imagery_words" AS v ("word", "docs")
SELECT s.word, s.ndoc FROM ts_stat('SELECT "address_tsv" FROM "imagery"') s
WHERE lis_vocabulary_word(s.word) AND s.word ~ '[0-9]'
ORDER BY s.word
ON CONFLICT ("word") DO UPDATE SET "docs" = EXCLUDED."docs";
