-- Points of interest know their category, as an OpenStreetMap tag ("amenity=restaurant", see
-- src/places/poi-category.ts), so a query naming a category ("restaurant", "hotel in Vaduz") finds
-- the pois of it. Only pois have one: both indexes are partial and small beside the gazetteer.
-- The btree answers a category with no point (its most important first, read in index order); the
-- GiST answers a category around a point (nearest first, within the point's radius).
ALTER TABLE "places" ADD COLUMN "category" TEXT;
CREATE INDEX "places_category_idx" ON "places" ("category", "importance" DESC, "id") WHERE "category" IS NOT NULL;
CREATE INDEX "places_category_location_idx" ON "places" USING GIST ("location") WHERE "category" IS NOT NULL;
