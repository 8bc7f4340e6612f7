-- Function lis_note_coverage_touched, as the migrations leave it (written by `npm run sql:functions`; change it in a migration).

CREATE OR REPLACE FUNCTION public.lis_note_coverage_touched()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
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
END $function$;
