-- Place term lists are built again only when places changed since the last build: every place import
-- and gazetteer seed ends with lis_refresh_place_terms, and a re-run that changed nothing paid a full
-- rebuild (8.8 s for the 1M bench's 530,000 places). What the last build saw is kept in
-- place_term_state: how many places there were and the newest updated_at (an insert or an update
-- moves it; a delete changes the count), with the parameters it was built with.
CREATE TABLE "place_term_state" (
  "id" BOOLEAN NOT NULL PRIMARY KEY DEFAULT true CHECK ("id"),
  "places" BIGINT NOT NULL,
  "last_change" TIMESTAMPTZ,
  "min_places" INTEGER NOT NULL,
  "list_size" INTEGER NOT NULL,
  "built_at" TIMESTAMPTZ NOT NULL DEFAULT now()
);

DROP FUNCTION lis_refresh_place_terms(INTEGER, INTEGER);

-- Builds every list again (the rules of the place_term_lists migration, unchanged) unless the places
-- and the parameters are what the last build saw and force is false; returns the lists built, or
-- NULL when nothing needed building.
CREATE FUNCTION lis_refresh_place_terms(min_places INTEGER, list_size INTEGER, force BOOLEAN DEFAULT false)
RETURNS INTEGER
LANGUAGE plpgsql
-- A word start of symbols only makes an empty tsquery: its notice is noise here.
SET client_min_messages = warning
AS $$
DECLARE
  t RECORD;
  built INTEGER := 0;
  seen_places BIGINT;
  seen_change TIMESTAMPTZ;
BEGIN
  PERFORM pg_advisory_xact_lock(hashtext('lis_refresh_place_terms'));
  SELECT count(*), max(p.updated_at) INTO seen_places, seen_change FROM places p;
  IF NOT force AND EXISTS (
    SELECT 1 FROM place_term_state s
    WHERE s.places = seen_places AND s.last_change IS NOT DISTINCT FROM seen_change
      AND s.min_places = lis_refresh_place_terms.min_places AND s.list_size = lis_refresh_place_terms.list_size
  ) THEN
    RETURN NULL;
  END IF;
  DELETE FROM place_term_ranks;
  DELETE FROM place_term_lists;
  FOR t IN
    SELECT left(w.word, n) AS term, sum(w.ndoc)::int AS places
    FROM ts_stat($q$SELECT p.search_tsv FROM places p
                   WHERE (p.kind <> 'address' OR p.name !~ '[0-9]' OR p.alt_names <> '')
                     AND p.kind IN ('locality', 'postcode', 'street', 'address', 'poi')$q$) w
    CROSS JOIN LATERAL generate_series(1, length(w.word)) n
    GROUP BY 1
    HAVING sum(w.ndoc) >= lis_refresh_place_terms.min_places
  LOOP
    INSERT INTO place_term_ranks (term, importance, place_id)
    SELECT t.term, p.importance, p.id FROM places p
    WHERE p.search_tsv @@ to_tsquery('simple', quote_literal(t.term) || ':*')
      AND (p.kind <> 'address' OR p.name !~ '[0-9]' OR p.alt_names <> '')
      AND p.kind IN ('locality', 'postcode', 'street', 'address', 'poi')
    ORDER BY p.importance DESC, p.id
    LIMIT lis_refresh_place_terms.list_size;
    INSERT INTO place_term_lists (term, places) VALUES (t.term, t.places);
    built := built + 1;
  END LOOP;
  INSERT INTO place_term_state (places, last_change, min_places, list_size)
  VALUES (seen_places, seen_change, lis_refresh_place_terms.min_places, lis_refresh_place_terms.list_size)
  ON CONFLICT (id) DO UPDATE SET places = EXCLUDED.places, last_change = EXCLUDED.last_change,
    min_places = EXCLUDED.min_places, list_size = EXCLUDED.list_size, built_at = now();
  RETURN built;
END
$$;
