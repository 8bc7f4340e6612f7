-- A place's names by language ({"de": "Köln", "ru": "Кёльн"}): OpenStreetMap's name:xx tags and a
-- GeoJSON place's `names`, keyed by BCP 47 language tags in lower case. A search's `lang` (or its
-- Accept-Language) picks them for the labels and recovered addresses it answers with
-- (docs/api.md#language). NULL where no other language is known. Adds a column; changes and drops no data.
ALTER TABLE "places" ADD COLUMN "names" JSONB;

-- A label's street, locality and region are looked up in another language among the places of their
-- kind that have names (src/search/sql/localized-names.sql.ts): small partial indexes, only over those.
CREATE INDEX "places_named_streets_idx" ON "places" USING gist (COALESCE(line, location))
  WHERE kind = 'street' AND names IS NOT NULL;
CREATE INDEX "places_named_localities_idx" ON "places" USING gist (location)
  WHERE kind = 'locality' AND names IS NOT NULL;
CREATE INDEX "places_named_regions_idx" ON "places" (region_code) WHERE kind = 'region' AND names IS NOT NULL;
