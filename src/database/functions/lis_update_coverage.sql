-- Function lis_update_coverage, as the migrations leave it (written by `npm run sql:functions`; change it in a migration).

CREATE OR REPLACE FUNCTION public.lis_update_coverage(full_above double precision DEFAULT 0.02, OUT rebuilt boolean, OUT cells bigint)
 RETURNS record
 LANGUAGE plpgsql
AS $function$
DECLARE
  touched bigint;
  sequences bigint;
  catalogue float8;
BEGIN
  PERFORM pg_advisory_xact_lock(hashtext('lis_refresh_coverage'));
  PERFORM set_config('jit', 'off', true);
  CREATE TEMPORARY TABLE coverage_touched_now ON COMMIT DROP AS SELECT location FROM coverage_touched WHERE false;
  WITH taken AS (DELETE FROM coverage_touched RETURNING location)
  INSERT INTO coverage_touched_now SELECT location FROM taken;
  GET DIAGNOSTICS touched = ROW_COUNT;
  CREATE TEMPORARY TABLE coverage_sequences_touched_now ON COMMIT DROP AS
  SELECT sequence_id FROM coverage_sequences_touched WHERE false;
  WITH taken AS (DELETE FROM coverage_sequences_touched RETURNING sequence_id)
  INSERT INTO coverage_sequences_touched_now SELECT sequence_id FROM taken;
  GET DIAGNOSTICS sequences = ROW_COUNT;
  -- The zoom 16 cells touched.
  CREATE TEMPORARY TABLE coverage_keys ON COMMIT DROP AS
  SELECT DISTINCT (lis_coverage_cell(16, ST_X(p), ST_Y(p))).*
  FROM (SELECT ST_Transform(location, 3857) AS p FROM coverage_touched_now WHERE location IS NOT NULL) t;
  SELECT coalesce(sum(count), 0) INTO catalogue FROM coverage_cells WHERE zoom = 0;
  -- The built-in database (PGlite) rebuilds always: its PostGIS fails to estimate a join on `&&`
  -- ("invalid join selectivity"), which every step here is; it holds small catalogues.
  rebuilt := touched > 0 AND (EXISTS (SELECT 1 FROM coverage_touched_now WHERE location IS NULL)
                              OR catalogue = 0 OR (SELECT count(*) FROM coverage_keys) > full_above * catalogue
                              OR version() LIKE '%PGlite%');
  cells := 0;
  IF rebuilt THEN
    DROP TABLE coverage_keys;
    cells := lis_refresh_coverage();
  ELSIF touched > 0 THEN
    ANALYZE coverage_keys;
    CREATE TEMPORARY TABLE coverage_changed (geom geometry, delta bigint) ON COMMIT DROP;
    cells := lis_update_coverage_16();
    IF EXISTS (SELECT 1 FROM coverage_changed) THEN
      cells := cells + lis_update_coverage_15();
    END IF;
    FOR z IN REVERSE 14..0 LOOP
      EXIT WHEN NOT EXISTS (SELECT 1 FROM coverage_changed);
      cells := cells + lis_update_coverage_low(z);
    END LOOP;
    DROP TABLE coverage_changed;
  ELSE
    DROP TABLE coverage_keys;
  END IF;
  IF NOT rebuilt AND (touched > 0 OR sequences > 0) THEN
    PERFORM lis_update_coverage_sequences();
    PERFORM lis_map_data_changed();
  END IF;
  DROP TABLE coverage_touched_now;
  DROP TABLE coverage_sequences_touched_now;
END $function$;
