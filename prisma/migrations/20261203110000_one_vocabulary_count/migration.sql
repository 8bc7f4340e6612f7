-- One upkeep for the vocabulary's counts (imagery_words: each word of the catalogue's addresses and
-- the number of addresses holding it). Its three statement triggers (insert, update, delete) ran
-- three copies of one upsert that differed only in where the changed addresses came from; they now
-- run one function, lis_count_words: each changed address counts +1 (inserted, or an update's new
-- address) or -1 (deleted, or an update's old address; an update that leaves the address as it was
-- counts nothing), and the counts of the vocabulary's words (lis_vocabulary_word) are added in one
-- upsert, a count never below 0. A trigger sees only its own event's transition tables (an insert has
-- no old_rows), so the changed addresses are chosen by the event and the statement is run with
-- EXECUTE. The counts are what the three functions kept (the insert's upsert now floors at 0 as well,
-- which only a count already below 0 could meet); no data changes.
CREATE FUNCTION "lis_count_words"() RETURNS trigger
  LANGUAGE plpgsql AS $$
DECLARE
  changed TEXT := CASE TG_OP
    WHEN 'INSERT' THEN 'SELECT r."address_tsv", 1 FROM new_rows r'
    WHEN 'DELETE' THEN 'SELECT o."address_tsv", -1 FROM old_rows o'
    ELSE 'SELECT r."address_tsv", 1
          FROM new_rows r JOIN old_rows o ON o."id" = r."id" AND o."address_tsv" IS DISTINCT FROM r."address_tsv"
          UNION ALL
          SELECT o."address_tsv", -1
          FROM old_rows o JOIN new_rows r ON r."id" = o."id" AND o."address_tsv" IS DISTINCT FROM r."address_tsv"'
  END;
BEGIN
  EXECUTE format($sql$
    INSERT INTO "imagery_words" AS v ("word", "docs")
    SELECT w.word, sum(c.n)::int
    FROM (%s) AS c(tsv, n), unnest(tsvector_to_array(c.tsv)) AS w(word)
    WHERE lis_vocabulary_word(w.word)
    GROUP BY w.word
    HAVING sum(c.n) <> 0
    ORDER BY w.word
    ON CONFLICT ("word") DO UPDATE SET "docs" = greatest(v."docs" + EXCLUDED."docs", 0)$sql$, changed);
  RETURN NULL;
END $$;

DROP TRIGGER "imagery_words_on_insert" ON "imagery";
CREATE TRIGGER "imagery_words_on_insert" AFTER INSERT ON "imagery"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "lis_count_words"();
DROP TRIGGER "imagery_words_on_update" ON "imagery";
CREATE TRIGGER "imagery_words_on_update" AFTER UPDATE ON "imagery"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "lis_count_words"();
DROP TRIGGER "imagery_words_on_delete" ON "imagery";
CREATE TRIGGER "imagery_words_on_delete" AFTER DELETE ON "imagery"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "lis_count_words"();

DROP FUNCTION "lis_collect_words"();
DROP FUNCTION "lis_recount_words"();
DROP FUNCTION "lis_forget_words"();
