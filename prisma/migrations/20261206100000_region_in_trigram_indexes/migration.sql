-- The places' trigram index also holds each place's region and country codes (btree_gin, as the
-- place candidates' full-text index since region_in_place_text_index), so the names most like a
-- misspelt query within a region come from one GIN scan that keeps only the region's places: before,
-- the index gave every place anywhere sharing enough trigrams with the query, and the region was a
-- filter on each of their rows (a misspelt street in a small country read thousands of places to keep
-- none). Searches without a region read only the trigram entries, as before. The imagery's trigram
-- index is left as it is: its word-similarity scan spends its time in the trigram entries, with or
-- without the codes beside them (docs/benchmarks.md, Issue 36, seventh round).
CREATE INDEX "places_name_norm_trgm_region_idx" ON "places" USING GIN ("name_norm" gin_trgm_ops, "region_code", "country_code");
DROP INDEX "places_name_norm_trgm_idx";
ALTER INDEX "places_name_norm_trgm_region_idx" RENAME TO "places_name_norm_trgm_idx";
