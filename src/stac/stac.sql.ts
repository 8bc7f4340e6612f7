import { Prisma } from '@prisma/client';
import { UNSOURCED_COLLECTION } from './stac-collection-id';
import { filterSql } from './stac-filter.sql';
import { StacSearch } from './stac-search-parameters';

// The item search's statements. The page is read in (captured_at, id) order, beyond the cursor's key:
// the imagery_captured_at_idx btree serves the order and the keyset, the imagery_location_idx GiST
// index the bbox and geometry tests (the planner picks by how many rows each leaves; see docs/stac.md).

// numberMatched is counted up to this many matches: exact below it, left out above (never a guess).
export const MATCH_COUNT_CAP = 10_000;

const ITEM_COLUMNS = Prisma.sql`i.id, i.address, i.captured_at, i.heading, i.interactive, i.image_url, i.source,
  ST_X(i.location) AS lon, ST_Y(i.location) AS lat`;

function envelope(west: number, south: number, east: number, north: number): Prisma.Sql {
  return Prisma.sql`ST_MakeEnvelope(${west}::float8, ${south}::float8, ${east}::float8, ${north}::float8, 4326)`;
}

// Every condition of the search but the cursor's.
function conditions(search: StacSearch): Prisma.Sql[] {
  const where: Prisma.Sql[] = [];
  if (search.bbox) {
    const [west, south, east, north] = search.bbox;
    where.push(
      west <= east
        ? Prisma.sql`i.location && ${envelope(west, south, east, north)}`
        : Prisma.sql`(i.location && ${envelope(west, south, 180, north)} OR i.location && ${envelope(-180, south, east, north)})`,
    );
  }
  if (search.intersects) {
    where.push(Prisma.sql`ST_Intersects(i.location, ${geometry(search)})`);
  }
  if (search.dates.from !== undefined) where.push(Prisma.sql`i.captured_at >= ${search.dates.from}::date`);
  if (search.dates.to !== undefined) where.push(Prisma.sql`i.captured_at <= ${search.dates.to}::date`);
  if (search.ids) where.push(Prisma.sql`i.id = ANY(${search.ids}::uuid[])`);
  if (search.collections) {
    const sources = Prisma.sql`i.source = ANY(${search.collections}::text[])`;
    where.push(
      search.collections.includes(UNSOURCED_COLLECTION) ? Prisma.sql`(${sources} OR i.source IS NULL)` : sources,
    );
  }
  if (search.filter) where.push(filterSql(search.filter));
  return where;
}

function geometry(search: StacSearch): Prisma.Sql {
  return Prisma.sql`ST_SetSRID(ST_GeomFromGeoJSON(${JSON.stringify(search.intersects)}::text), 4326)`;
}

const whereOf = (parts: Prisma.Sql[]) =>
  parts.length === 0 ? Prisma.empty : Prisma.sql`WHERE ${Prisma.join(parts, ' AND ')}`;

// One page (limit + 1 rows: the one more says a next page exists) and the count of all matches, up to
// MATCH_COUNT_CAP + 1, in one statement. The matches are read first, at most that many, by whichever
// index fits the filters (the location GiST index for an area): when they are all there, the page is
// sorted from them; only a search with more matches reads its page by walking the (captured_at, id)
// btree in order, where at least one row in MATCH_COUNT_CAP / catalogue matches and the walk is short.
// (Left to itself the planner walks the btree for a small area too, filtering out every row outside
// it: 140,000 rows for a dense block of 2,500 records in 1M, docs/stac.md.)
export function searchPageSql(search: StacSearch): Prisma.Sql {
  const where = conditions(search);
  const desc = search.direction === 'desc';
  // A prev token's page is read backwards from its key (the limit + 1 rows nearest before it), then
  // returned in the search's order like any page.
  const readDesc = desc !== (search.cursor?.before === true);
  const beyond = (alias: string) => {
    if (!search.cursor) return [];
    const key = Prisma.sql`(${search.cursor.capturedAt}::date, ${search.cursor.id}::uuid)`;
    const row = Prisma.raw(`(${alias}.captured_at, ${alias}.id)`);
    return [readDesc ? Prisma.sql`${row} < ${key}` : Prisma.sql`${row} > ${key}`];
  };
  const order = (alias: string, descending = readDesc) =>
    Prisma.raw(`${alias}.captured_at ${descending ? 'DESC' : 'ASC'}, ${alias}.id ${descending ? 'DESC' : 'ASC'}`);
  const few = Prisma.sql`(SELECT matched FROM counted) <= ${MATCH_COUNT_CAP}`;
  const many = Prisma.sql`(SELECT matched FROM counted) > ${MATCH_COUNT_CAP}`;
  return Prisma.sql`
    WITH matches AS MATERIALIZED (
      SELECT i.captured_at, i.id FROM imagery i ${whereOf(where)} LIMIT ${MATCH_COUNT_CAP + 1}
    ),
    counted AS (SELECT count(*)::int AS matched FROM matches),
    keys AS (
      (SELECT m.captured_at, m.id FROM matches m ${whereOf([few, ...beyond('m')])}
       ORDER BY ${order('m')} LIMIT ${search.limit + 1})
      UNION ALL
      (SELECT i.captured_at, i.id FROM imagery i ${whereOf([many, ...where, ...beyond('i')])}
       ORDER BY ${order('i')} LIMIT ${search.limit + 1})
    ),
    page AS (SELECT ${ITEM_COLUMNS} FROM keys k JOIN imagery i ON i.id = k.id)
    SELECT c.matched, p.id::text AS id, p.address, p.captured_at::text AS captured_at, p.heading, p.interactive,
      p.image_url, p.source, p.lon, p.lat
    FROM counted c
    LEFT JOIN page p ON true
    ORDER BY ${order('p', desc)}`;
}

export function itemSql(id: string): Prisma.Sql {
  return Prisma.sql`
    SELECT i.id::text AS id, i.address, i.captured_at::text AS captured_at, i.heading, i.interactive, i.image_url,
      i.source, ST_X(i.location) AS lon, ST_Y(i.location) AS lat
    FROM imagery i WHERE i.id = ${id}::uuid`;
}

// A polygon PostGIS cannot test against (a self-intersecting ring): its reason, so the answer is a 400.
export function geometryProblemSql(search: StacSearch): Prisma.Sql {
  return Prisma.sql`SELECT CASE WHEN ST_IsValid(g) THEN NULL ELSE ST_IsValidReason(g) END AS problem
    FROM (SELECT ${geometry(search)} AS g) t`;
}

// Each collection's count, extent and capture dates: one pass over the catalogue (cached by the service).
export const collectionsSql = Prisma.sql`
  SELECT coalesce(i.source, ${UNSOURCED_COLLECTION}) AS id, count(*)::int AS count,
    ST_XMin(ST_Extent(i.location)) AS west, ST_YMin(ST_Extent(i.location)) AS south,
    ST_XMax(ST_Extent(i.location)) AS east, ST_YMax(ST_Extent(i.location)) AS north,
    min(i.captured_at)::text AS first_capture, max(i.captured_at)::text AS last_capture
  FROM imagery i
  GROUP BY 1
  ORDER BY 1`;

/** Raised by every import that changed the imagery (lis_update_coverage): the collections' cache key. */
export const dataVersionSql = Prisma.sql`SELECT version::text AS version FROM map_data_version WHERE id = 1`;
