-- Function lis_coverage_next, as the migrations leave it (written by `npm run sql:functions`; change it in a migration).

CREATE OR REPLACE FUNCTION public.lis_coverage_next()
 RETURNS void
 LANGUAGE plpgsql
AS $function$
BEGIN
  CREATE TABLE coverage_cells_next (LIKE coverage_cells INCLUDING ALL EXCLUDING INDEXES) PARTITION BY LIST (zoom);
  FOR z IN 0..16 LOOP
    EXECUTE format('CREATE TABLE %I PARTITION OF coverage_cells_next FOR VALUES IN (%s)', 'coverage_cells_next_z' || z, z);
  END LOOP;
END $function$;
