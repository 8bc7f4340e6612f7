-- Function lis_update_coverage_sequences, as the migrations leave it (written by `npm run sql:functions`; change it in a migration).

CREATE OR REPLACE FUNCTION public.lis_update_coverage_sequences()
 RETURNS bigint
 LANGUAGE plpgsql
AS $function$
BEGIN
  IF version() LIKE '%PGlite%' OR EXISTS (SELECT 1 FROM coverage_sequences_touched_now WHERE sequence_id IS NULL) THEN
    RETURN lis_write_coverage_sequences(NULL);
  END IF;
  RETURN lis_write_coverage_sequences(ARRAY(
    SELECT t.sequence_id FROM coverage_sequences_touched_now t
    UNION
    SELECT p.sequence_id
    FROM coverage_touched_now t
    CROSS JOIN LATERAL (SELECT m.id FROM imagery m WHERE m.location && t.location) i
    JOIN photos p ON p.id = i.id
    WHERE t.location IS NOT NULL
    UNION
    SELECT s.sequence_id
    FROM coverage_touched_now t
    CROSS JOIN LATERAL (SELECT c.sequence_id FROM coverage_sequences c
                        WHERE c.geom && ST_Expand(ST_Transform(t.location, 3857), 1)) s
    WHERE t.location IS NOT NULL));
END $function$;
