-- One rule for splitting text into words, the service's: a word is a run of letters, marks and numbers
-- (tokenize, src/search/search-query.ts). The database split stored text with PostgreSQL's default text
-- search parser, which keeps some punctuation inside one token: "Herrengasse 35/1" held the words
-- herrengasse and 35/1 (a file path), "Washington, D.C." washington and d.c (a host), "Biel/Bienne" one
-- word, "3.5" a number, "-12" a signed one, an e-mail address one, while a query of that same text asks
-- for 35 & 1, d & c, biel & bienne: an address could not be found by its own text. And the parser
-- keeps in a word characters its C library calls letters that are none to the service (circled letters,
-- zero-width joiners, the soft hyphen, direction marks). lis_search_text is the text the parser now
-- reads: lis_normalize's fold with every character that is not a letter, mark or number a space, so the
-- parser meets only runs of word characters, tokenize's words (test/medium/word-splitting.spec.ts
-- compares them for every character and over every name of the world gazetteer and every demo
-- address). ASCII punctuation goes by translate, the rest (in text that has any) by a regular
-- expression of code point ranges (scripts/word-separators.mjs writes it from JavaScript's Unicode
-- classes): both the same in every locale, where a class such as [[:alpha:]] is not. Hyphenated words
-- lose their whole-compound token ("fürst-franz-josef"); their parts were words before and stay words.
--
-- The two generated text columns take the new expression (PostgreSQL 15 cannot change a generation
-- expression: each is dropped and added again, which rewrites its table, and the indexes the drop
-- removes are made again as they were). What is derived from the words is made again as a fresh load
-- makes it: the vocabulary and its counts (imagery_words), counted over the new column; the place
-- term lists, built with the parameters of their last build; the ranked word lists lose the records
-- whose words changed (every entry stays true, as the update trigger keeps them) and their next
-- refresh rebuilds every list (its state row goes: the refresh then takes every record as changed).
-- Changes no record.
CREATE FUNCTION "lis_search_text"(input TEXT) RETURNS TEXT
  LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
  AS $fn$
  SELECT CASE WHEN octet_length(t) = length(t) THEN t ELSE regexp_replace(t,
    '[\u0080-\u00a9\u00ab-\u00b1\u00b4\u00b6-\u00b8\u00bb\u00bf\u00d7\u00f7\u02c2-\u02c5\u02d2-\u02df\u02e5-\u02eb\u02ed\u02ef-\u02ff\u0375\u037e\u0384-\u0385\u0387\u03f6\u0482\u055a-\u055f\u0589-\u058f\u05be\u05c0\u05c3\u05c6\u05f3-\u060f\u061b-\u061f\u066a-\u066d\u06d4\u06dd-\u06de\u06e9\u06fd-\u06fe\u0700-\u070f\u07f6-\u07f9\u07fe-\u07ff\u0830-\u083e\u085e\u0888\u0890-\u0891\u08e2\u0964-\u0965\u0970\u09f2-\u09f3\u09fa-\u09fb\u09fd\u0a76\u0af0-\u0af1\u0b70\u0bf3-\u0bfa\u0c77\u0c7f\u0c84\u0d4f\u0d79\u0df4\u0e3f\u0e4f\u0e5a-\u0e5b\u0f01-\u0f17\u0f1a-\u0f1f\u0f34\u0f36\u0f38\u0f3a-\u0f3d\u0f85\u0fbe-\u0fc5\u0fc7-\u0fda\u104a-\u104f\u109e-\u109f\u10fb\u1360-\u1368\u1390-\u1399\u1400\u166d-\u166e\u1680\u169b-\u169c\u16eb-\u16ed\u1735-\u1736\u17d4-\u17d6\u17d8-\u17db\u1800-\u180a\u180e\u1940-\u1945\u19de-\u19ff\u1a1e-\u1a1f\u1aa0-\u1aa6\u1aa8-\u1aad\u1b4e-\u1b4f\u1b5a-\u1b6a\u1b74-\u1b7f\u1bfc-\u1bff\u1c3b-\u1c3f\u1c7e-\u1c7f\u1cc0-\u1cc7\u1cd3\u1fbd\u1fbf-\u1fc1\u1fcd-\u1fcf\u1fdd-\u1fdf\u1fed-\u1fef\u1ffd-\u206f\u207a-\u207e\u208a-\u208e\u20a0-\u20c1\u2100-\u2101\u2103-\u2106\u2108-\u2109\u2114\u2116-\u2118\u211e-\u2123\u2125\u2127\u2129\u212e\u213a-\u213b\u2140-\u2144\u214a-\u214d\u214f\u218a-\u244a\u249c-\u24e9\u2500-\u2775\u2794-\u2bff\u2ce5-\u2cea\u2cf9-\u2cfc\u2cfe-\u2cff\u2d70\u2e00-\u2e2e\u2e30-\u3004\u3008-\u3020\u3030\u3036-\u3037\u303d-\u303f\u309b-\u309c\u30a0\u30fb\u3190-\u3191\u3196-\u319f\u31c0-\u31ef\u3200-\u321e\u322a-\u3247\u3250\u3260-\u327f\u328a-\u32b0\u32c0-\u33ff\u4dc0-\u4dff\ua490-\ua4c6\ua4fe-\ua4ff\ua60d-\ua60f\ua673\ua67e\ua6f2-\ua716\ua720-\ua721\ua789-\ua78a\ua828-\ua82b\ua836-\ua839\ua874-\ua877\ua8ce-\ua8cf\ua8f8-\ua8fa\ua8fc\ua92e-\ua92f\ua95f\ua9c1-\ua9cd\ua9de-\ua9df\uaa5c-\uaa5f\uaa77-\uaa79\uaade-\uaadf\uaaf0-\uaaf1\uab5b\uab6a-\uab6b\uabeb\ue000-\uf8ff\ufb29\ufbb2-\ufbd2\ufd3e-\ufd4f\ufd90-\ufd91\ufdc8-\ufdcf\ufdfc-\ufdff\ufe10-\ufe19\ufe30-\ufe6b\ufeff-\uff0f\uff1a-\uff20\uff3b-\uff40\uff5b-\uff65\uffe0-\ufffd\U00010100-\U00010102\U00010137-\U0001013f\U00010179-\U00010189\U0001018c-\U000101fc\U0001039f\U000103d0\U0001056f\U00010857\U00010877-\U00010878\U0001091f\U0001093f\U00010a50-\U00010a58\U00010a7f\U00010ac8\U00010af0-\U00010af6\U00010b39-\U00010b3f\U00010b99-\U00010b9c\U00010d6e\U00010d8e-\U00010d8f\U00010ead\U00010ed0-\U00010ed8\U00010f55-\U00010f59\U00010f86-\U00010f89\U00011047-\U0001104d\U000110bb-\U000110c1\U000110cd\U00011140-\U00011143\U00011174-\U00011175\U000111c5-\U000111c8\U000111cd\U000111db\U000111dd-\U000111df\U00011238-\U0001123d\U000112a9\U000113d4-\U000113d8\U0001144b-\U0001144f\U0001145a-\U0001145d\U000114c6\U000115c1-\U000115d7\U00011641-\U00011643\U00011660-\U0001166c\U000116b9\U0001173c-\U0001173f\U0001183b\U00011944-\U00011946\U000119e2\U00011a3f-\U00011a46\U00011a9a-\U00011a9c\U00011a9e-\U00011aa2\U00011b00-\U00011b09\U00011be1\U00011c41-\U00011c45\U00011c70-\U00011c71\U00011ef7-\U00011ef8\U00011f43-\U00011f4f\U00011fd5-\U00011fff\U00012470-\U00012474\U00012ff1-\U00012ff2\U00013430-\U0001343f\U00016a6e-\U00016a6f\U00016af5\U00016b37-\U00016b3f\U00016b44-\U00016b45\U00016d6d-\U00016d6f\U00016e97-\U00016e9a\U00016fe2\U0001bc9c\U0001bc9f-\U0001ccef\U0001ccfa-\U0001cef0\U0001cf50-\U0001d164\U0001d16a-\U0001d16c\U0001d173-\U0001d17a\U0001d183-\U0001d184\U0001d18c-\U0001d1a9\U0001d1ae-\U0001d241\U0001d245\U0001d300-\U0001d356\U0001d6c1\U0001d6db\U0001d6fb\U0001d715\U0001d735\U0001d74f\U0001d76f\U0001d789\U0001d7a9\U0001d7c3\U0001d800-\U0001d9ff\U0001da37-\U0001da3a\U0001da6d-\U0001da74\U0001da76-\U0001da83\U0001da85-\U0001da8b\U0001e14f\U0001e2ff\U0001e5ff\U0001e95e-\U0001e95f\U0001ecac\U0001ecb0\U0001ed2e\U0001eef0-\U0001f0f5\U0001f10d-\U0001fbef\U0001fbfa\U000e0001-\U000e007f\U000f0000-\U0010fffd]',
    ' ', 'g') END
  FROM translate(public.lis_normalize(input), '!"#$%&''()*+,-./:;<=>?@[\]^_`{|}~', '                                ') AS t
$fn$;

-- Listed records whose words change leave the ranked lists (read before the column goes: the rewrite
-- fires no trigger).
DELETE FROM "imagery_word_ranks" r
WHERE r."imagery_id" IN (
  SELECT i."id" FROM "imagery" i
  WHERE i."id" IN (SELECT k."imagery_id" FROM "imagery_word_ranks" k)
    AND i."address_tsv" IS DISTINCT FROM to_tsvector('simple'::regconfig, "lis_search_text"(i."address")));
DELETE FROM "imagery_word_ranks_state";

ALTER TABLE "imagery" DROP COLUMN "address_tsv";
ALTER TABLE "imagery" ADD COLUMN "address_tsv" tsvector
  GENERATED ALWAYS AS (to_tsvector('simple'::regconfig, "lis_search_text"("address"))) STORED;
CREATE INDEX "imagery_address_tsv_idx" ON "imagery" USING GIN ("address_tsv", "region_code", "country_code");

ALTER TABLE "places" DROP COLUMN "search_tsv";
ALTER TABLE "places" ADD COLUMN "search_tsv" tsvector GENERATED ALWAYS AS (
  to_tsvector('simple'::regconfig, "lis_search_text"(
    "label" || ' ' || "alt_names" || ' ' || coalesce("postcode", '') || ' ' || coalesce("district", '') || ' ' ||
    coalesce("municipality", '')))
) STORED;
CREATE INDEX "places_search_tsv_idx" ON "places" USING GIN ("search_tsv");
CREATE INDEX "places_search_tsv_named_idx" ON "places" USING GIN ("search_tsv", "region_code", "country_code")
  WHERE "kind" <> 'address' OR "name" !~ '[0-9]' OR "alt_names" <> '';

-- The vocabulary as counting every record's words from nothing gives it (a word no address holds any
-- more goes, as it never comes in a fresh load).
TRUNCATE "imagery_words";
INSERT INTO "imagery_words" ("word", "docs")
SELECT s.word, s.ndoc FROM ts_stat('SELECT "address_tsv" FROM "imagery"') s
WHERE lis_vocabulary_word(s.word)
ORDER BY s.word;

-- The place term lists, built again with their last build's parameters (none when never built).
DO $$
DECLARE
  s RECORD;
BEGIN
  SELECT t."min_places", t."list_size" INTO s FROM "place_term_state" t;
  IF FOUND THEN
    PERFORM lis_refresh_place_terms(s."min_places", s."list_size", true);
  END IF;
END $$;
