-- Function lis_apply_coverage_cells, as the migrations leave it (written by `npm run sql:functions`; change it in a migration).

CREATE OR REPLACE FUNCTION public.lis_apply_coverage_cells(z integer)
 RETURNS bigint
 LANGUAGE plpgsql
AS $function$
DECLARE
  changed bigint;
BEGIN
  CREATE TEMPORARY TABLE coverage_diff ON COMMIT DROP AS
  SELECT o.row_id, o.geom AS old_geom, o.count AS old_count, n.geom, n.count, n.image_id, n.heading, n.interactive,
         n.captured_at
  FROM coverage_old o FULL JOIN coverage_new n ON n.kx = o.kx AND n.ky = o.ky
  WHERE (ST_X(o.geom), ST_Y(o.geom), o.count, o.image_id, o.heading, o.interactive, o.captured_at)
        IS DISTINCT FROM (ST_X(n.geom), ST_Y(n.geom), n.count, n.image_id, n.heading, n.interactive, n.captured_at);
  DELETE FROM coverage_cells
  WHERE zoom = z AND ctid = ANY (ARRAY(SELECT row_id FROM coverage_diff WHERE row_id IS NOT NULL));
  INSERT INTO coverage_cells (zoom, geom, count, image_id, heading, interactive, captured_at)
  SELECT z, geom, count, image_id, heading, interactive, captured_at FROM coverage_diff WHERE geom IS NOT NULL;
  DELETE FROM coverage_changed;
  INSERT INTO coverage_changed (geom, delta)
  SELECT old_geom, -old_count FROM coverage_diff WHERE old_geom IS NOT NULL
  UNION ALL SELECT geom, count FROM coverage_diff WHERE geom IS NOT NULL;
  SELECT count(*) INTO changed FROM coverage_diff;
  DROP TABLE coverage_old, coverage_new, coverage_diff;
  RETURN changed;
END $function$;
