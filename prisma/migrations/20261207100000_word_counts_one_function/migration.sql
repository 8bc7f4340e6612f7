-- The vocabulary's counts (imagery_words) get one home: lis_add_word_counts(removed, added) holds the
-- upsert that lis_count_words ran and that the writers of imagery ran as a copy where imagery is
-- distributed over Citus and has no triggers (the import's batches and relinking, docs/scaling.md#citus).
-- Each address removed counts -1 and each added +1 for every word of the vocabulary
-- (lis_vocabulary_word) it holds, summed per word, a count never below 0; NULL addresses count nothing.
-- The trigger now passes its transition tables' addresses to it (an update's addresses only where they
-- changed, as before); the writers call it with theirs. The counts are the same; no data changes.
-- plpgsql as the other upkeep functions, so that creating it validates no table (the Citus coordinator
-- propagates functions to its workers).
CREATE FUNCTION "lis_add_word_counts"(removed TSVECTOR[], added TSVECTOR[]) RETURNS void
  LANGUAGE plpgsql AS $$
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
END $$;

-- A trigger sees only its own event's transition tables (an insert has no old_rows): each branch reads
-- the ones its event has.
CREATE OR REPLACE FUNCTION "lis_count_words"() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM lis_add_word_counts('{}', ARRAY(SELECT r."address_tsv" FROM new_rows r));
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM lis_add_word_counts(ARRAY(SELECT o."address_tsv" FROM old_rows o), '{}');
  ELSE
    PERFORM lis_add_word_counts(
      ARRAY(SELECT o."address_tsv"
            FROM old_rows o JOIN new_rows r ON r."id" = o."id" AND o."address_tsv" IS DISTINCT FROM r."address_tsv"),
      ARRAY(SELECT r."address_tsv"
            FROM new_rows r JOIN old_rows o ON o."id" = r."id" AND o."address_tsv" IS DISTINCT FROM r."address_tsv"));
  END IF;
  RETURN NULL;
END $$;
