-- Coverage at zooms 15 and 16: one point per cell of the zoom's grid (1/64 of a tile's side, as
-- below), the cell's newest image with its attributes, so that a tile over a dense city reads at most
-- 64 x 64 cells (and its buffer's) instead of every image under it, already in EPSG:3857 and in the
-- order of the grid (a tile's rows on few pages). From zoom 17 a tile reads the images themselves.
-- The cells of 15 and 16 hold the image's own location (not the cell's centre: its point is drawn where
-- it was taken); `count` is the images of the cell, as at the lower zooms.
ALTER TABLE "coverage_cells"
  ADD COLUMN "image_id" uuid,
  ADD COLUMN "heading" double precision,
  ADD COLUMN "interactive" boolean,
  ADD COLUMN "captured_at" date;
CREATE INDEX "coverage_cells_z15_idx" ON "coverage_cells" USING GIST ("geom") WHERE "zoom" = 15;
CREATE INDEX "coverage_cells_z16_idx" ON "coverage_cells" USING GIST ("geom") WHERE "zoom" = 16;

-- Rebuilds coverage_cells from the imagery: zoom 16 from the images (per cell its count and its newest
-- image, ties broken by the smaller id), zoom 15 from 16 (the newest of its four cells' images), each
-- lower zoom from the one above (its cells are exactly four of them: the grids share the origin of
-- EPSG:3857), then raises the data version. Returns the number of cells.
CREATE OR REPLACE FUNCTION lis_refresh_coverage() RETURNS bigint
LANGUAGE plpgsql AS $$
DECLARE
  world CONSTANT float8 := 40075016.685578488;
  origin CONSTANT float8 := -20037508.342789244;
  cells bigint;
BEGIN
  -- DELETE, not TRUNCATE: tiles being drawn meanwhile read the old cells instead of waiting.
  DELETE FROM coverage_cells;
  -- Cells by their whole-number column and row (a sort on numbers, not geometries), in the grid's order
  -- row by row: a tile's cells lie together on disk.
  INSERT INTO coverage_cells (zoom, geom, count, image_id, heading, interactive, captured_at)
  SELECT DISTINCT ON (cy, cx) 16, p, count(*) OVER (PARTITION BY cy, cx), id, heading, interactive, captured_at
  FROM (SELECT floor((ST_X(q.p) - origin) / (world / (2 ^ 16 * 64)))::int AS cx,
               floor((-origin - ST_Y(q.p)) / (world / (2 ^ 16 * 64)))::int AS cy, q.*
        FROM (SELECT ST_Transform(location, 3857) AS p, id, heading, interactive, captured_at FROM imagery) q) i
  ORDER BY cy, cx, captured_at DESC, id;
  INSERT INTO coverage_cells (zoom, geom, count, image_id, heading, interactive, captured_at)
  SELECT DISTINCT ON (cy, cx) 15, geom, sum(count) OVER (PARTITION BY cy, cx), image_id, heading, interactive, captured_at
  FROM (SELECT floor((ST_X(geom) - origin) / (world / (2 ^ 15 * 64)))::int AS cx,
               floor((-origin - ST_Y(geom)) / (world / (2 ^ 15 * 64)))::int AS cy, c.*
        FROM coverage_cells c WHERE zoom = 16) i
  ORDER BY cy, cx, captured_at DESC, image_id;
  FOR z IN REVERSE 14..0 LOOP
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
