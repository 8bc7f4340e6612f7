-- Place candidates of every kind but addresses (see placeCandidatesSql): addresses are most of a
-- gazetteer and are read only when fewer than 200 places of the other kinds match. Adds an index.
CREATE INDEX "places_search_tsv_named_idx" ON "places" USING GIN ("search_tsv") WHERE "kind" <> 'address';
