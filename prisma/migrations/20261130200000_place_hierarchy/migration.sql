-- Where a place lies, beyond its locality: the municipality (the administrative boundary of
-- admin_level 8 it lies in) and the district (the hamlet, village or suburb it belongs to), filled by
-- the OpenStreetMap import from the file's boundaries and place=* objects. A search matches any part
-- of where a place lies, so the search text also holds them and the postcode (a label may leave them
-- out: Liechtenstein's address format has no hamlet). The generated column is made again, and with it
-- its two indexes (same definitions as before). Changes and drops no data.
ALTER TABLE "places" ADD COLUMN "municipality" TEXT;
ALTER TABLE "places" ADD COLUMN "district" TEXT;

ALTER TABLE "places" DROP COLUMN "search_tsv";
ALTER TABLE "places" ADD COLUMN "search_tsv" tsvector GENERATED ALWAYS AS (
  to_tsvector('simple'::regconfig, "lis_normalize"(
    "label" || ' ' || "alt_names" || ' ' || coalesce("postcode", '') || ' ' || coalesce("district", '') || ' ' ||
    coalesce("municipality", '')))
) STORED;
CREATE INDEX "places_search_tsv_idx" ON "places" USING GIN ("search_tsv");
CREATE INDEX "places_search_tsv_named_idx" ON "places" USING GIN ("search_tsv", "region_code", "country_code")
  WHERE "kind" <> 'address' OR "name" !~ '[0-9]' OR "alt_names" <> '';
