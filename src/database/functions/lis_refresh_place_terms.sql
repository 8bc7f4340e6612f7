-- Function lis_refresh_place_terms, as the migrations leave it (written by `npm run sql:functions`; change it in a migration).

CREATE OR REPLACE FUNCTION public.lis_refresh_place_terms(min_places integer, list_size integer, force boolean DEFAULT false)
 RETURNS integer
 LANGUAGE plpgsql
 SET client_min_messages TO 'warning'
AS $function$
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
  INSERT INTO place_term_state (places, last_change, min_places, list_size, built_at)
  VALUES (seen_places, seen_change, lis_refresh_place_terms.min_places, lis_refresh_place_terms.list_size, now())
  ON CONFLICT (id) DO UPDATE SET places = EXCLUDED.places, last_change = EXCLUDED.last_change,
    min_places = EXCLUDED.min_places, list_size = EXCLUDED.list_size, built_at = EXCLUDED.built_at;
  RETURN built;
END
$function$;
