-- The place candidates' index also holds each place's region and country codes (btree_gin, as for
-- imagery in region_in_text_index), so the candidates of a query with a region filter come from one
-- GIN scan instead of every place holding the words, read and then filtered by region: "Washington"
-- in US-DC read 1,133 places to keep 395. Same predicate as named_places_index.
CREATE INDEX "places_search_tsv_named_region_idx" ON "places" USING GIN ("search_tsv", "region_code", "country_code")
  WHERE "kind" <> 'address' OR "name" !~ '[0-9]' OR "alt_names" <> '';
DROP INDEX "places_search_tsv_named_idx";
ALTER INDEX "places_search_tsv_named_region_idx" RENAME TO "places_search_tsv_named_idx";
