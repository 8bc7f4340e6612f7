-- Place candidates read addresses only for a query holding a word with a digit (a house number names
-- an address: its name is street and house number, and every word of a name must be in the query).
-- The addresses such a query could name without one (a name or other names of their own, no digit in
-- the name) join the other kinds in the partial index the first scan reads.
DROP INDEX IF EXISTS "places_search_tsv_named_idx";
CREATE INDEX "places_search_tsv_named_idx" ON "places" USING GIN ("search_tsv")
  WHERE "kind" <> 'address' OR "name" !~ '[0-9]' OR "alt_names" <> '';
