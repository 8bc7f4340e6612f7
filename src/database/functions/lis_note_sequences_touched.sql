-- Function lis_note_sequences_touched, as the migrations leave it (written by `npm run sql:functions`; change it in a migration).

CREATE OR REPLACE FUNCTION public.lis_note_sequences_touched()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  IF TG_OP = 'TRUNCATE' OR EXISTS (SELECT 1 FROM "imagery_first_load") THEN
    INSERT INTO "coverage_sequences_touched" ("sequence_id") VALUES (NULL);
  ELSIF TG_OP = 'INSERT' THEN
    INSERT INTO "coverage_sequences_touched" ("sequence_id") SELECT DISTINCT r."sequence_id" FROM new_rows r;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO "coverage_sequences_touched" ("sequence_id") SELECT DISTINCT o."sequence_id" FROM old_rows o;
  ELSE
    -- Planned at every call, with the transition tables' real sizes (as lis_note_coverage_touched).
    EXECUTE $sql$
      INSERT INTO "coverage_sequences_touched" ("sequence_id")
      SELECT DISTINCT v.sequence_id
      FROM old_rows o JOIN new_rows r ON r."id" = o."id"
      CROSS JOIN LATERAL (VALUES (o."sequence_id"), (r."sequence_id")) AS v(sequence_id)
      WHERE (o."sequence_id", o."sequence_index") IS DISTINCT FROM (r."sequence_id", r."sequence_index")
    $sql$;
  END IF;
  RETURN NULL;
END $function$;
