-- Extensions: PostGIS for points, pg_trgm for typo-tolerant matching, unaccent for accent-insensitive search.
CREATE EXTENSION IF NOT EXISTS "postgis";
CREATE EXTENSION IF NOT EXISTS "pg_trgm";
CREATE EXTENSION IF NOT EXISTS "unaccent";

-- unaccent() is STABLE (it reads a dictionary); this wrapper pins the dictionary so it can be IMMUTABLE
-- and used in generated columns and indexes. Lower-cases and maps accents and ß to ss.
CREATE OR REPLACE FUNCTION "lis_normalize"(input TEXT) RETURNS TEXT
  LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
  AS $$ SELECT lower(public.unaccent('public.unaccent'::regdictionary, input)) $$;

-- CreateTable
CREATE TABLE "imagery" (
    "id" UUID NOT NULL,
    "address" TEXT NOT NULL,
    "address_norm" TEXT GENERATED ALWAYS AS ("lis_normalize"("address")) STORED,
    "address_tsv" tsvector GENERATED ALWAYS AS (to_tsvector('simple'::regconfig, "lis_normalize"("address"))) STORED,
    "captured_at" DATE NOT NULL,
    "heading" DOUBLE PRECISION NOT NULL,
    "interactive" BOOLEAN NOT NULL DEFAULT false,
    "image_url" TEXT NOT NULL,
    "location" geometry(Point, 4326) NOT NULL,
    "source" TEXT,
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "imagery_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "imagery_heading_check" CHECK ("heading" >= 0 AND "heading" < 360),
    CONSTRAINT "imagery_address_check" CHECK (length("address") > 0)
);

-- CreateTable
CREATE TABLE "api_keys" (
    "id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "prefix" TEXT NOT NULL,
    "key_hash" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "revoked_at" TIMESTAMPTZ(6),
    "last_used_at" TIMESTAMPTZ(6),

    CONSTRAINT "api_keys_pkey" PRIMARY KEY ("id")
);

-- Full-text search on the normalized address.
CREATE INDEX "imagery_address_tsv_idx" ON "imagery" USING GIN ("address_tsv");

-- Trigram matching (typos, fuzzy fallback) on the normalized address.
CREATE INDEX "imagery_address_norm_trgm_idx" ON "imagery" USING GIN ("address_norm" gin_trgm_ops);

-- Spatial lookups.
CREATE INDEX "imagery_location_idx" ON "imagery" USING GIST ("location");

-- Imports that track where records came from.
CREATE INDEX "imagery_source_idx" ON "imagery"("source");

-- API keys are looked up by hash.
CREATE UNIQUE INDEX "api_keys_key_hash_key" ON "api_keys"("key_hash");
