-- Places: a gazetteer beside imagery (countries, regions, localities, postcodes, streets, addresses,
-- points of interest), and the link from every imagery record to the places it belongs to.
-- Adds tables, columns and indexes; changes and drops no data.

CREATE TABLE "places" (
  "id" UUID NOT NULL,
  "kind" TEXT NOT NULL,
  "name" TEXT NOT NULL,
  "housenumber" TEXT,
  "street" TEXT,
  "postcode" TEXT,
  "locality" TEXT,
  "region" TEXT,
  -- ISO 3166-2 code of the first-level region ("US-CA"), where known.
  "region_code" TEXT,
  -- ISO 3166-1 alpha-2 code ("LI"), where known.
  "country_code" TEXT,
  -- How the place is shown: its address as its country writes it, or "name, region, country".
  "label" TEXT NOT NULL,
  -- Other names that find it (alternative spellings, the region's and country's other names and
  -- codes), separated by ' | '; full text matches label and these together.
  "alt_names" TEXT NOT NULL DEFAULT '',
  "name_norm" TEXT GENERATED ALWAYS AS ("lis_normalize"("name")) STORED,
  "search_tsv" tsvector GENERATED ALWAYS AS (
    to_tsvector('simple'::regconfig, "lis_normalize"("label" || ' ' || "alt_names"))
  ) STORED,
  "location" geometry(Point, 4326) NOT NULL,
  -- How much a place matters when names collide, 0..1 (from population, or its kind).
  "importance" DOUBLE PRECISION NOT NULL DEFAULT 0,
  "population" BIGINT,
  -- Where it came from ('world-gazetteer', 'osm', 'openaddresses', a file's --source) and its id there.
  "source" TEXT NOT NULL,
  "source_id" TEXT NOT NULL,
  "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "updated_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

  CONSTRAINT "places_pkey" PRIMARY KEY ("id"),
  CONSTRAINT "places_kind_check" CHECK ("kind" IN ('country', 'region', 'locality', 'postcode', 'street', 'address', 'poi')),
  CONSTRAINT "places_name_check" CHECK (length("name") > 0),
  CONSTRAINT "places_label_check" CHECK (length("label") > 0),
  CONSTRAINT "places_importance_check" CHECK ("importance" >= 0 AND "importance" <= 1)
);

CREATE UNIQUE INDEX "places_source_id_key" ON "places" ("source", "source_id");
-- Finding places by text: full text (words, prefixes) and trigram similarity of the name (typos).
CREATE INDEX "places_search_tsv_idx" ON "places" USING GIN ("search_tsv");
CREATE INDEX "places_name_norm_trgm_idx" ON "places" USING GIN ("name_norm" gin_trgm_ops);
-- Nearest place of one kind (address recovery): one KNN index per kind it is asked for.
CREATE INDEX "places_address_location_idx" ON "places" USING GIST ("location") WHERE "kind" = 'address';
CREATE INDEX "places_street_location_idx" ON "places" USING GIST ("location") WHERE "kind" = 'street';
CREATE INDEX "places_locality_location_idx" ON "places" USING GIST ("location") WHERE "kind" = 'locality';
CREATE INDEX "places_location_idx" ON "places" USING GIST ("location");

-- Imagery and places.
-- address_origin: where the record's address comes from: its own ('own'), or recovered from the
-- nearest address place ('address'), named street ('street') or locality ('locality').
ALTER TABLE "imagery" ADD COLUMN "address_origin" TEXT NOT NULL DEFAULT 'own';
ALTER TABLE "imagery" ADD CONSTRAINT "imagery_address_origin_check"
  CHECK ("address_origin" IN ('own', 'address', 'street', 'locality'));
-- The place whose address a recovered record shows (NULL for own addresses).
ALTER TABLE "imagery" ADD COLUMN "place_id" UUID;
-- The locality the record lies in or nearest to, and that locality's region and country: search
-- ranks the imagery of the places a query means first, and `region` filters by these codes.
ALTER TABLE "imagery" ADD COLUMN "locality_id" UUID;
ALTER TABLE "imagery" ADD COLUMN "region_code" TEXT;
ALTER TABLE "imagery" ADD COLUMN "country_code" TEXT;

CREATE INDEX "imagery_place_id_idx" ON "imagery" ("place_id") WHERE "place_id" IS NOT NULL;
CREATE INDEX "imagery_locality_id_idx" ON "imagery" ("locality_id") WHERE "locality_id" IS NOT NULL;
CREATE INDEX "imagery_country_code_idx" ON "imagery" ("country_code");
CREATE INDEX "imagery_region_code_idx" ON "imagery" ("region_code") WHERE "region_code" IS NOT NULL;
-- Records waiting for a better address when places are imported later.
CREATE INDEX "imagery_recovered_idx" ON "imagery" ("id") WHERE "address_origin" <> 'own';
-- Records not yet linked to a locality (imported before any place was).
CREATE INDEX "imagery_unlinked_idx" ON "imagery" ("id") WHERE "locality_id" IS NULL;
