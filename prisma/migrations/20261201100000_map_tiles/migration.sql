-- The service's own map (GET /tiles/{z}/{x}/{y}.mvt, docs/map-tiles.md). Adds tables, indexes and
-- functions; changes and drops no data.
--
-- map_features: the drawn geometry an OpenStreetMap import keeps (streets, paths, water, landuse,
-- buildings), one row per OSM object and layer. Stored in EPSG:3857, the tiles' own projection:
-- ST_TileEnvelope is 3857, so the GiST index answers a tile's box directly and ST_AsMVTGeom needs no
-- ST_Transform per row. "geom_low" is a copy simplified to 10 m (about a pixel of a 4096-extent
-- tile at zoom 10) for the low zooms, kept only for features shown below zoom 12, with its own
-- partial index. "min_zoom": the zoom from which the feature is drawn (its class, and for areas
-- their size), so a low-zoom tile reads only what it shows.
CREATE TABLE "map_features" (
  "source" text NOT NULL,
  "layer" text NOT NULL CHECK ("layer" IN ('streets', 'paths', 'water', 'landuse', 'buildings')),
  "class" text NOT NULL,
  "name" text,
  "min_zoom" smallint NOT NULL,
  "geom" geometry(Geometry, 3857) NOT NULL,
  "geom_low" geometry(Geometry, 3857)
);
CREATE INDEX "map_features_geom_idx" ON "map_features" USING GIST ("geom");
CREATE INDEX "map_features_low_geom_idx" ON "map_features" USING GIST ("geom_low") WHERE "min_zoom" < 12;
CREATE INDEX "map_features_source_idx" ON "map_features" ("source");

-- coverage_cells: where imagery is, counted per grid cell for the aggregated coverage layer of
-- tiles below zoom 15: at each zoom z (0..14) a cell is 1/64 of a tile's side, so a tile holds at
-- most 64 x 64 cells (plus its buffer) whatever the number of images under it. Rebuilt by
-- lis_refresh_coverage() after every imagery import. One partial index per zoom: a tile reads
-- only its own zoom's cells.
CREATE TABLE "coverage_cells" (
  "zoom" smallint NOT NULL,
  "geom" geometry(Point, 3857) NOT NULL,
  "count" integer NOT NULL
);
DO $$
BEGIN
  FOR z IN 0..14 LOOP
    EXECUTE format('CREATE INDEX %I ON coverage_cells USING GIST (geom) WHERE zoom = %s', 'coverage_cells_z' || z || '_idx', z);
  END LOOP;
END $$;

-- The map's data version, in every tile's ETag: raised after each import that changed imagery,
-- places or map features (after it committed, so a tile built from the new data never carries the
-- old version).
CREATE TABLE "map_data_version" (
  "id" smallint PRIMARY KEY CHECK ("id" = 1),
  "version" bigint NOT NULL,
  "changed_at" timestamptz NOT NULL DEFAULT now()
);
INSERT INTO "map_data_version" ("id", "version") VALUES (1, 1);

-- Place labels of the map's low zooms (countries, regions, localities) without the addresses
-- around them.
CREATE INDEX "places_label_location_idx" ON "places" USING GIST ("location") WHERE "kind" IN ('country', 'region', 'locality');

-- Rebuilds coverage_cells from the imagery: zoom 14 from the images, each lower zoom from the one
-- above (its cells are exactly four of them: the grids share the origin of EPSG:3857), then raises
-- the data version. Returns the number of cells.
CREATE FUNCTION lis_refresh_coverage() RETURNS bigint
LANGUAGE plpgsql AS $$
DECLARE
  world CONSTANT float8 := 40075016.685578488;
  origin CONSTANT float8 := -20037508.342789244;
  cells bigint;
BEGIN
  -- DELETE, not TRUNCATE: tiles being drawn meanwhile read the old cells instead of waiting.
  DELETE FROM coverage_cells;
  INSERT INTO coverage_cells (zoom, geom, count)
  SELECT 14, ST_SnapToGrid(ST_Transform(location, 3857), origin + world / (2 ^ 14 * 64) / 2, origin + world / (2 ^ 14 * 64) / 2,
                           world / (2 ^ 14 * 64), world / (2 ^ 14 * 64)), count(*)
  FROM imagery GROUP BY 2;
  FOR z IN REVERSE 13..0 LOOP
    INSERT INTO coverage_cells (zoom, geom, count)
    SELECT z, ST_SnapToGrid(geom, origin + world / (2 ^ z * 64) / 2, origin + world / (2 ^ z * 64) / 2,
                            world / (2 ^ z * 64), world / (2 ^ z * 64)), sum(count)
    FROM coverage_cells WHERE zoom = z + 1 GROUP BY 2;
  END LOOP;
  ANALYZE coverage_cells;
  SELECT count(*) INTO cells FROM coverage_cells;
  PERFORM lis_map_data_changed();
  RETURN cells;
END $$;

-- Raises the map's data version (every tile's ETag changes).
CREATE FUNCTION lis_map_data_changed() RETURNS bigint
LANGUAGE sql AS $$
  UPDATE map_data_version SET version = version + 1, changed_at = now() WHERE id = 1 RETURNING version
$$;

-- Roles that may read imagery without owning it (the read-only role) may read the map too (later
-- runs of `npm run db:create-readonly-role` grant it as well).
DO $$
DECLARE
  r RECORD;
  owner OID := (SELECT c.relowner FROM pg_class c WHERE c.oid = 'imagery'::regclass);
BEGIN
  FOR r IN
    SELECT a.rolname FROM pg_roles a
    WHERE has_table_privilege(a.oid, 'imagery', 'SELECT') AND NOT a.rolsuper
      AND a.rolname NOT LIKE 'pg\_%' AND NOT pg_has_role(a.oid, owner, 'MEMBER')
  LOOP
    EXECUTE format('GRANT SELECT ON map_features, coverage_cells, map_data_version TO %I', r.rolname);
  END LOOP;
END $$;
