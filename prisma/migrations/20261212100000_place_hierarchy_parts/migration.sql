-- The places a place lies in below its country, by kind (hamlet, village, suburb, quarter,
-- neighbourhood, district, city): an object of names, filled by the OpenStreetMap import from the
-- file's place=* nodes and areas (docs/places.md, "Where a place lies"). NULL where nothing is known.
-- Adds a column; changes and drops no data.
ALTER TABLE "places" ADD COLUMN "hierarchy" JSONB;
