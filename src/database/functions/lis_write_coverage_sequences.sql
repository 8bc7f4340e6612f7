-- Function lis_write_coverage_sequences, as the migrations leave it (written by `npm run sql:functions`; change it in a migration).

CREATE OR REPLACE FUNCTION public.lis_write_coverage_sequences(sequences uuid[])
 RETURNS bigint
 LANGUAGE plpgsql
AS $function$
DECLARE
  written bigint;
BEGIN
  IF sequences IS NULL THEN
    DELETE FROM coverage_sequences;
    INSERT INTO coverage_sequences (sequence_id, geom, count, captured_at, interactive)
    SELECT sequence_id, geom, count, captured_at, interactive FROM coverage_sequence_lines;
  ELSE
    DELETE FROM coverage_sequences WHERE sequence_id = ANY(sequences);
    INSERT INTO coverage_sequences (sequence_id, geom, count, captured_at, interactive)
    SELECT sequence_id, geom, count, captured_at, interactive FROM coverage_sequence_lines
    WHERE sequence_id = ANY(sequences);
  END IF;
  GET DIAGNOSTICS written = ROW_COUNT;
  RETURN written;
END $function$;
