-- Streets as lines: a street's point is one vertex of it, so imagery 30 m from a long street could be
-- 400 m from that vertex and take another street's name. "line" holds the street's whole line where
-- the import had it (OpenStreetMap ways); the nearest-street lookup of address recovery measures to
-- the line, else to the point. The street KNN index is made again on that shape, under its old name.
-- Adds a column and replaces one index; changes and drops no data.
ALTER TABLE "places" ADD COLUMN "line" geometry(Geometry, 4326);
DROP INDEX "places_street_location_idx";
CREATE INDEX "places_street_location_idx" ON "places" USING GIST ((coalesce("line", "location"))) WHERE "kind" = 'street';
