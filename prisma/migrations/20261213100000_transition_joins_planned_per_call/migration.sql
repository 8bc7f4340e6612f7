-- The update triggers' joins of old_rows and new_rows are planned at every call (EXECUTE), with the
-- transition tables' real sizes. As static statements, PL/pgSQL planned them once per connection, at
-- the first call: a session whose first update changed a row or two kept a nested loop over both
-- tables, and an update of 5,000 rows later on the same connection compared 25,000,000 pairs per join
-- (about 5 s each, three joins: 20 s of a 0.3 s relinking batch in the demo seed into a catalogue that
-- holds records). The statements are the same; no data changes.
CREATE OR REPLACE FUNCTION "lis_count_words"() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM lis_add_word_counts('{}', ARRAY(SELECT r."address_tsv" FROM new_rows r));
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM lis_add_word_counts(ARRAY(SELECT o."address_tsv" FROM old_rows o), '{}');
  ELSE
    EXECUTE $sql$
      SELECT lis_add_word_counts(
        ARRAY(SELECT o."address_tsv"
              FROM old_rows o JOIN new_rows r ON r."id" = o."id" AND o."address_tsv" IS DISTINCT FROM r."address_tsv"),
        ARRAY(SELECT r."address_tsv"
              FROM new_rows r JOIN old_rows o ON o."id" = r."id" AND o."address_tsv" IS DISTINCT FROM r."address_tsv"))
    $sql$;
  END IF;
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION "lis_unrank_readdressed"() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE $sql$
    DELETE FROM "imagery_word_ranks" r
    USING old_rows o JOIN new_rows n ON n."id" = o."id" AND o."address_tsv" IS DISTINCT FROM n."address_tsv"
    WHERE r."imagery_id" = o."id"
  $sql$;
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION "lis_note_coverage_touched"() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'TRUNCATE' OR EXISTS (SELECT 1 FROM "imagery_first_load") THEN
    INSERT INTO "coverage_touched" ("location") VALUES (NULL);
  ELSIF TG_OP = 'INSERT' THEN
    INSERT INTO "coverage_touched" ("location") SELECT r."location" FROM new_rows r;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO "coverage_touched" ("location") SELECT o."location" FROM old_rows o;
  ELSE
    EXECUTE $sql$
      INSERT INTO "coverage_touched" ("location")
      SELECT v.location
      FROM old_rows o JOIN new_rows r ON r."id" = o."id"
      CROSS JOIN LATERAL (VALUES (o."location"), (r."location")) AS v(location)
      WHERE (ST_X(o."location"), ST_Y(o."location"), o."captured_at", o."heading", o."interactive")
            IS DISTINCT FROM (ST_X(r."location"), ST_Y(r."location"), r."captured_at", r."heading", r."interactive")
    $sql$;
  END IF;
  RETURN NULL;
END $$;
