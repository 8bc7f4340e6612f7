-- Place term lists: for every word start ("s", "sa", ... "street") that many places a query can pin
-- hold, those places most important first, as place candidates rank them (importance, then id). A
-- one-word query ("street", "San") then reads its candidates from one index range instead of
-- thousands of places through the GIN index (17-21 ms at 1M records, measured). Rebuilt whole by
-- lis_refresh_place_terms when places change (imports and the gazetteer seed end with it); a list is
-- used only while it exists, and a place deleted since is skipped when its columns are read.
CREATE TABLE "place_term_ranks" (
  "term" TEXT NOT NULL,
  "importance" DOUBLE PRECISION NOT NULL,
  "place_id" UUID NOT NULL
);
CREATE UNIQUE INDEX "place_term_ranks_order_idx" ON "place_term_ranks" ("term", "importance" DESC, "place_id");

CREATE TABLE "place_term_lists" (
  "term" TEXT NOT NULL PRIMARY KEY,
  -- Places holding a word with this start (an upper bound: a place with two such words counts twice).
  "places" INTEGER NOT NULL,
  "built_at" TIMESTAMPTZ NOT NULL DEFAULT now()
);

-- Builds every list again: terms are the starts of the words of pinnable places (those the partial
-- index places_search_tsv_named_idx holds) found in at least min_places of them; each list holds
-- the list_size most important. Returns the lists built.
CREATE FUNCTION lis_refresh_place_terms(min_places INTEGER, list_size INTEGER) RETURNS INTEGER
LANGUAGE plpgsql
-- A word start of symbols only makes an empty tsquery: its notice is noise here.
SET client_min_messages = warning
AS $$
DECLARE
  t RECORD;
  built INTEGER := 0;
BEGIN
  PERFORM pg_advisory_xact_lock(hashtext('lis_refresh_place_terms'));
  DELETE FROM place_term_ranks;
  DELETE FROM place_term_lists;
  FOR t IN
    SELECT left(w.word, n) AS term, sum(w.ndoc)::int AS places
    FROM ts_stat($q$SELECT p.search_tsv FROM places p
                   WHERE (p.kind <> 'address' OR p.name !~ '[0-9]' OR p.alt_names <> '')
                     AND p.kind IN ('locality', 'postcode', 'street', 'address', 'poi')$q$) w
    CROSS JOIN LATERAL generate_series(1, length(w.word)) n
    GROUP BY 1
    HAVING sum(w.ndoc) >= min_places
  LOOP
    INSERT INTO place_term_ranks (term, importance, place_id)
    SELECT t.term, p.importance, p.id FROM places p
    WHERE p.search_tsv @@ to_tsquery('simple', quote_literal(t.term) || ':*')
      AND (p.kind <> 'address' OR p.name !~ '[0-9]' OR p.alt_names <> '')
      AND p.kind IN ('locality', 'postcode', 'street', 'address', 'poi')
    ORDER BY p.importance DESC, p.id
    LIMIT list_size;
    INSERT INTO place_term_lists (term, places) VALUES (t.term, t.places);
    built := built + 1;
  END LOOP;
  RETURN built;
END
$$;
