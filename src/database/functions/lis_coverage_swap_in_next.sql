-- Function lis_coverage_swap_in_next, as the migrations leave it (written by `npm run sql:functions`; change it in a migration).

CREATE OR REPLACE FUNCTION public.lis_coverage_swap_in_next()
 RETURNS void
 LANGUAGE plpgsql
AS $function$
BEGIN
  FOR z IN 0..16 LOOP
    EXECUTE format('CREATE INDEX %I ON %I USING GIST (geom)', 'coverage_cells_next_z' || z || '_idx', 'coverage_cells_next_z' || z);
  END LOOP;
  PERFORM lis_swap_in_table('coverage_cells', 'coverage_cells_next');
  FOR z IN 0..16 LOOP
    EXECUTE format('ALTER TABLE %I RENAME TO %I', 'coverage_cells_next_z' || z, 'coverage_cells_z' || z);
    EXECUTE format('ALTER INDEX %I RENAME TO %I', 'coverage_cells_next_z' || z || '_idx', 'coverage_cells_z' || z || '_idx');
  END LOOP;
END $function$;
