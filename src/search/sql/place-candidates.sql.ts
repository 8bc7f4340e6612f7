import { Prisma } from '@prisma/client';
import { anyWordTsquery } from '../query/tsquery';
import { TextQuery } from '../query/text-query';
import { PLACE_CANDIDATES } from '../../search-index/search-index-limits';
import { inRegionSql } from './region.sql';

// Places found by full text, read at most this many before ranking (GIN index places_search_tsv_idx;
// a one-letter prefix in a large gazetteer finds more, and the rest are not considered).
export const PLACE_FOUND_CAP = 5_000;
// Trigram similarity a misspelt name needs (pg_trgm's default threshold for %).
export const PLACE_SIMILARITY_MIN = 0.3;

const PLACE_COLUMNS = Prisma.sql`p.id, p.kind, p.name, p.label, p.alt_names AS "altNames", p.importance,
  ST_X(p.location) AS lon, ST_Y(p.location) AS lat`;

// Kinds whose imagery a query can pin: imagery links to these (place_id, locality_id).
const PINNABLE = Prisma.sql`p.kind IN ('locality', 'postcode', 'street', 'address', 'poi')`;

// Every place but the addresses named by street and house number: the predicate of the partial index
// places_search_tsv_named_idx (written as there, so the planner can use it).
const NAMED_WITHOUT_NUMBER = Prisma.sql`(p.kind <> 'address' OR p.name !~ '[0-9]' OR p.alt_names <> '')`;

function regionCondition(region: string | null): Prisma.Sql {
  if (region === null) return Prisma.sql`true`;
  return inRegionSql('p', region);
}

// Places whose label or other names hold every word of the query (the last as a prefix).
// The capped scans read only what ranking by importance needs (id, importance); the columns are
// read for the PLACE_CANDIDATES kept, by primary key: a common word ("street") finds thousands, and
// reading their other names (up to 2,000 characters each) cost much of the statement
// (docs/benchmarks.md#fig-candidate-columns). The LIMIT 1 keeps that lookup a per-row index probe:
// joined as a plain join, the planner once hash-joined a sequential scan of the whole table (see
// test/medium/place-search-plans.spec.ts). Addresses (most of a gazetteer, and the least important
// kind) whose name holds a digit (street and house number) are read only for a query with a digit
// (every word of a name must be in the query to name it, see nameFit) and when fewer than
// PLACE_CANDIDATES places of the other kinds match: a street's name alone read every address of the
// street though it names none of them (docs/benchmarks.md#fig-addresses-for-digits), and a prefix
// like "Jeff" reads its streets and towns from the partial index places_search_tsv_named_idx instead
// of PLACE_FOUND_CAP rows.
// Split (as the imagery search splits, see shapeTextQuery): the index looks up every word but the
// last and the whole query filters what it finds. GIN reads every word a prefix starts before it can
// intersect: `6th Street` listed every place of `street*` to find its few (docs/benchmarks.md#fig-candidates-split).
export function placeCandidatesSql(query: TextQuery, region: string | null, splitPrefix = false): Prisma.Sql {
  const tsv =
    splitPrefix && query.tsqueryLeading !== null
      ? Prisma.sql`p.search_tsv @@ to_tsquery('simple', ${query.tsqueryLeading})
        AND coalesce(p.search_tsv @@ to_tsquery('simple', ${query.tsquery}), false)`
      : Prisma.sql`p.search_tsv @@ to_tsquery('simple', ${query.tsquery})`;
  const matches = Prisma.sql`${tsv} AND ${regionCondition(region)}`;
  const numbered = query.groups.some((group) => group.some((word) => /\d/.test(word)));
  const found = Prisma.sql`SELECT p.id, p.importance FROM places p
      WHERE ${matches} AND ${NAMED_WITHOUT_NUMBER} AND ${PINNABLE}`;
  // Anywhere (no region): from the place term lists; in a region, the first found.
  const named =
    region !== null
      ? Prisma.sql`${found} LIMIT ${PLACE_FOUND_CAP}`
      : query.groups.length === 1
        ? oneWordNamedSql(query, found)
        : severalWordsNamedSql(query, found);
  return Prisma.sql`
    WITH named AS MATERIALIZED (
      ${named}
    ),
    kept AS MATERIALIZED (
      SELECT f.id FROM (
        SELECT * FROM named
        ${
          numbered
            ? Prisma.sql`UNION ALL
        SELECT * FROM (SELECT p.id, p.importance FROM places p
          WHERE ${matches} AND p.kind = 'address' AND NOT ${NAMED_WITHOUT_NUMBER} LIMIT ${PLACE_FOUND_CAP}) a
        WHERE (SELECT count(*) FROM named) < ${PLACE_CANDIDATES}`
            : Prisma.empty
        }
      ) f
      ORDER BY f.importance DESC, f.id
      LIMIT ${PLACE_CANDIDATES}
    )
    SELECT c.*, NULL::float8 AS similarity
    FROM kept k CROSS JOIN LATERAL (SELECT ${PLACE_COLUMNS} FROM places p WHERE p.id = k.id LIMIT 1) c
    ORDER BY c.importance DESC, c.id`;
}

// One word (as a prefix) anywhere: its term list when it has one (else the index), and the places of
// its other spellings ("st" for "street") from the index. UNION: a place found twice counts once.
function oneWordNamedSql(query: TextQuery, found: Prisma.Sql): Prisma.Sql {
  const [typed, ...spellings] = query.groups[0];
  const others =
    spellings.length === 0
      ? Prisma.empty
      : Prisma.sql`UNION
      (SELECT p.id, p.importance FROM places p
        WHERE p.search_tsv @@ to_tsquery('simple', ${anyWordTsquery(spellings)}) AND ${NAMED_WITHOUT_NUMBER} AND ${PINNABLE}
        LIMIT ${PLACE_FOUND_CAP})`;
  return Prisma.sql`SELECT r.place_id AS id, r.importance FROM place_term_ranks r WHERE r.term = ${typed}
      UNION
      (${found} AND NOT EXISTS (SELECT FROM place_term_lists l WHERE l.term = ${typed}) LIMIT ${PLACE_FOUND_CAP})
      ${others}`;
}

// Several words anywhere: the term list of the word (one spelled one way only) that the fewest
// places hold, its places that hold every word of the query. A list holds a word's most important
// places, so those are exactly the most important places of the query too, as many as the list has
// (a place the list leaves out is less important than all of them); when that is fewer than
// MIN_LISTED_CANDIDATES, the index adds the first PLACE_FOUND_CAP it finds. From the index, "United
// States" read its first PLACE_FOUND_CAP places in table order, far slower than its list
// (docs/benchmarks.md#fig-candidate-term-lists). Each listed place is checked by primary key (LIMIT 1):
// joined, the planner hash-joined an index scan of every place holding the words.
const MIN_LISTED_CANDIDATES = PLACE_CANDIDATES / 2;
function severalWordsNamedSql(query: TextQuery, found: Prisma.Sql): Prisma.Sql {
  const terms = query.groups.filter((g) => g.length === 1).map((g) => g[0]);
  if (terms.length === 0) return Prisma.sql`${found} LIMIT ${PLACE_FOUND_CAP}`;
  return Prisma.sql`WITH listed AS MATERIALIZED (
        SELECT r.place_id AS id, r.importance FROM place_term_ranks r
        CROSS JOIN LATERAL (
          SELECT FROM places p WHERE p.id = r.place_id
            AND p.search_tsv @@ to_tsquery('simple', ${query.tsquery}) AND ${NAMED_WITHOUT_NUMBER} AND ${PINNABLE} LIMIT 1
        ) holds
        WHERE r.term = (SELECT l.term FROM place_term_lists l WHERE l.term = ANY(${terms}::text[]) ORDER BY l.places, l.term LIMIT 1)
      )
      SELECT * FROM listed
      UNION
      (${found} AND (SELECT count(*) FROM listed) < ${MIN_LISTED_CANDIDATES} LIMIT ${PLACE_FOUND_CAP})`;
}

// Misspelt names: trigram similarity of the name to the whole query (GIN index places_name_norm_trgm_idx,
// which holds the places' region codes too: a region is a condition of the same scan).
export function similarPlacesSql(text: string, region: string | null): Prisma.Sql {
  const norm = Prisma.sql`lis_normalize(${text})`;
  return Prisma.sql`
    SELECT ${PLACE_COLUMNS}, similarity(p.name_norm, ${norm})::float8 AS similarity
    FROM places p
    WHERE p.name_norm % ${norm} AND similarity(p.name_norm, ${norm}) >= ${PLACE_SIMILARITY_MIN}
      AND ${PINNABLE} AND ${regionCondition(region)}
    ORDER BY similarity(p.name_norm, ${norm}) + p.importance DESC, p.id
    LIMIT ${PLACE_CANDIDATES}`;
}

// The addresses whose label or other names hold every word of the query whole (a street's name and a
// town's, read for a street that only its addresses name), with their street: up to PLACE_CANDIDATES,
// most important first.
export function streetAddressesSql(query: TextQuery, region: string | null): Prisma.Sql {
  return Prisma.sql`
    SELECT ${PLACE_COLUMNS}, p.street, NULL::float8 AS similarity
    FROM places p
    WHERE p.search_tsv @@ to_tsquery('simple', ${query.tsqueryExact}) AND p.kind = 'address' AND p.street IS NOT NULL
      AND ${regionCondition(region)}
    ORDER BY p.importance DESC, p.id
    LIMIT ${PLACE_CANDIDATES}`;
}

// The town that addresses and pois name (their addr:city) where no place of that name is loaded
// ("Maldun", as four objects in Liechtenstein spell Malbun; "Feldkirch", across the border of an
// extract): where they lie, their centre and their spelling, as Nominatim keeps an address's town it
// cannot link as a search term of the object. At most ADDRESS_TOWN_CAP of them are read (the GIN index
// finds those holding the words; the town's name must then be the whole of their locality).
export const ADDRESS_TOWN_CAP = 1_000;
export function addressTownSql(query: TextQuery, region: string | null): Prisma.Sql {
  return Prisma.sql`
    SELECT min(t.locality) AS name, count(*)::int AS places,
           ST_X(ST_Centroid(ST_Collect(t.location)))::float8 AS lon, ST_Y(ST_Centroid(ST_Collect(t.location)))::float8 AS lat
    FROM (
      SELECT p.locality, p.location FROM places p
      WHERE p.search_tsv @@ to_tsquery('simple', ${query.tsqueryExact}) AND p.kind IN ('address', 'poi')
        AND lis_normalize(p.locality) = lis_normalize(${query.text}) AND ${regionCondition(region)}
      LIMIT ${ADDRESS_TOWN_CAP}
    ) t
    HAVING count(*) > 0`;
}

// A country's or region's own place (the built-in gazetteer's, by primary key), where it is loaded.
export function regionPlaceSql(placeId: string): Prisma.Sql {
  return Prisma.sql`SELECT ${PLACE_COLUMNS}, NULL::float8 AS similarity FROM places p WHERE p.id = ${placeId}::uuid`;
}

// Each (record, place) pair with the place's label and point, the distance between them and the
// bearing from the record to the place (NULL at the place itself) and the places it lies in, for
// `include: ["place"]`.
export function recordPlacesSql(recordIds: string[], placeIds: string[]): Prisma.Sql {
  return Prisma.sql`
    SELECT x.record_id AS "recordId", p.id, p.kind, p.label, ST_Y(p.location) AS lat, ST_X(p.location) AS lon,
           p.hierarchy,
           ST_Distance(i.location::geography, p.location::geography)::float8 AS distance,
           degrees(ST_Azimuth(i.location::geography, p.location::geography))::float8 AS bearing
    FROM unnest(${recordIds}::uuid[], ${placeIds}::uuid[]) AS x(record_id, place_id)
    JOIN imagery i ON i.id = x.record_id
    JOIN places p ON p.id = x.place_id`;
}
