import { Prisma } from '@prisma/client';
import { circleBounds } from './circle-bounds';
import type { Circle, SearchPlan } from '../planning/search-planner';
import type { PageWindow } from '../paging/search-limits';
import { filterConditions } from './filter-conditions.sql';
import { ROW_COLUMNS } from './page-strategies.sql';
import { inRegionSql } from './region.sql';
import { geography } from './spatial.sql';

// The imagery at the points of interest of a category (a query such as "restaurant" or "hotel in
// Vaduz", see category-query.ts). Bounded work: at most CATEGORY_POIS pois are kept (nearest the
// point first, or the most important; around a town twice as many are read, its own and the others),
// and of each at most CATEGORY_RECORDS_PER_POI records within CATEGORY_REACH_M of it, so one statement
// reads at most 200 pois and 2,000 records.
export const CATEGORY_POIS = 100;
export const CATEGORY_RECORDS_PER_POI = 20;
/** How near a record must be to a poi to show it: the poi's front door, not its street. */
export const CATEGORY_REACH_M = 50;

/** Where the pois are looked for: around a point (within its radius), and in a country. */
export interface CategoryArea {
  around: Circle | null;
  /** The town named ("bar in Triesenberg"): its own pois (their municipality or locality) come first. */
  town?: string | null;
  /** ISO 3166-1 alpha-2: pois of another country are left out (pois without one are kept). */
  country: string | null;
}

// The pois looked at: around a point, the GiST index walks them nearest first (planar order; the
// rank is the sphere's), the named town's own first (a town is a circle here, not its boundary, so a
// neighbour's bar may stand nearer its centre: two walks, each nearest first); anywhere, the most
// important of each category from the btree index (a scan per tag: one scan for several tags would
// read every poi of them to sort them).
function poisSql(tags: string[], area: CategoryArea): Prisma.Sql {
  const columns = Prisma.sql`p.id, p.kind, p.name, p.label, p.alt_names, p.importance, p.location,
               ST_X(p.location) AS lon, ST_Y(p.location) AS lat`;
  // category IS NOT NULL spelt out: it is the condition of both partial indexes.
  const where: Prisma.Sql[] = [Prisma.sql`p.category IS NOT NULL`];
  if (area.country) where.push(inRegionSql('p', area.country, true));
  if (!area.around) {
    return Prisma.sql`
        SELECT p.* FROM unnest(${tags}::text[]) AS t(tag) CROSS JOIN LATERAL (
          SELECT ${columns}, 0 AS tier, -p.importance::float8 AS ord
          FROM places p
          WHERE ${Prisma.join(where, ' AND ')} AND p.category = t.tag
          ORDER BY p.importance DESC, p.id
          LIMIT ${CATEGORY_POIS}
        ) p
        ORDER BY p.ord, p.id
        LIMIT ${CATEGORY_POIS}`;
  }
  const around = area.around;
  const { west, south, east, north } = circleBounds(around, around.radiusM);
  const box = (w: number, e: number) =>
    Prisma.sql`p.location && ST_MakeEnvelope(${w}::float8, ${south}::float8, ${e}::float8, ${north}::float8, 4326)`;
  where.push(west <= east ? box(west, east) : Prisma.sql`(${box(west, 180)} OR ${box(-180, east)})`);
  where.push(Prisma.sql`ST_DWithin(p.location::geography, ${geography(around)}, ${around.radiusM}::float8)`);
  const nearestFirst = (tier: number, also: Prisma.Sql[]) => Prisma.sql`
        SELECT ${columns}, ${tier}::int AS tier, (p.location::geography <-> ${geography(around)})::float8 AS ord
        FROM places p
        WHERE ${Prisma.join([...where, ...also], ' AND ')} AND p.category = ANY(${tags}::text[])
        ORDER BY p.location <-> ST_SetSRID(ST_MakePoint(${around.lon}::float8, ${around.lat}::float8), 4326)
        LIMIT ${CATEGORY_POIS}`;
  if (!area.town) return nearestFirst(0, []);
  const inTown = Prisma.sql`(p.municipality = ${area.town} OR p.locality = ${area.town})`;
  return Prisma.sql`
        SELECT u.* FROM ((${nearestFirst(0, [inTown])}) UNION ALL (${nearestFirst(1, [Prisma.sql`${inTown} IS NOT TRUE`])})) u
        ORDER BY u.tier, u.ord, u.id
        LIMIT ${CATEGORY_POIS}`;
}

// Of each poi its CATEGORY_RECORDS_PER_POI nearest records within CATEGORY_REACH_M, each record shown
// once, at its best-ranked poi. distributed: imagery is distributed (Citus), see hitsSql.
export function categoryImagerySql(
  tags: string[],
  area: CategoryArea,
  window: PageWindow,
  plan: SearchPlan,
  distributed = false,
) {
  const imagery = [
    Prisma.sql`ST_DWithin(i.location::geography, poi.location::geography, ${CATEGORY_REACH_M}::float8)`,
    ownPlaceSql(tags),
    ...filterConditions(plan.filters),
  ];
  return Prisma.sql`
    WITH poi AS MATERIALIZED (
      SELECT q.*, row_number() OVER (ORDER BY q.tier, q.ord, q.id) AS poi_rank
      FROM (${poisSql(tags, area)}
      ) q
    ), ${distributed ? joinedHitsSql(imagery) : lateralHitsSql(imagery)}
    SELECT c.total, r.*
    FROM (SELECT count(*)::int AS total FROM hit) c
    LEFT JOIN LATERAL (
      SELECT ${ROW_COLUMNS}, 0::float8 AS score, h.d::float8 AS distance, h.poi_rank,
             poi.id AS "poiId", poi.kind AS "poiKind", poi.name AS "poiName", poi.label AS "poiLabel",
             poi.alt_names AS "poiAltNames", poi.importance AS "poiImportance", poi.lon AS "poiLon", poi.lat AS "poiLat"
      FROM hit h JOIN imagery i ON i.id = h.id JOIN poi ON poi.id = h.poi_id
      ORDER BY h.poi_rank, h.d, i.id
      LIMIT ${window.limit} OFFSET ${window.offset}
    ) r ON true`;
}

// The record's own place carries the category: no address, town or poi of another category (or of
// none) stands nearer to it than the poi (a cafe's record beside a restaurant is the cafe's; a poi and the
// address it is mapped in, at one point, are equally near). The box is the reach in degrees of
// longitude at the record's latitude, the wider of the two, so the location index finds them.
function ownPlaceSql(tags: string[]): Prisma.Sql {
  return Prisma.sql`NOT EXISTS (
          SELECT 1 FROM places o
          WHERE o.location && ST_Expand(i.location, ${CATEGORY_REACH_M}::float8 / (111320 * cos(radians(least(abs(ST_Y(i.location)), 85)))))
            AND (o.kind IN ('address', 'locality') OR (o.category IS NOT NULL AND NOT o.category = ANY(${tags}::text[])))
            AND (o.location::geography <-> i.location::geography) < (poi.location::geography <-> i.location::geography)
        )`;
}

// On one server: per poi a LATERAL read of its nearest records (the geography index's nearest-first
// walk stops at CATEGORY_RECORDS_PER_POI; at equal distance, the index's order).
function lateralHitsSql(imagery: Prisma.Sql[]): Prisma.Sql {
  return Prisma.sql`hit AS MATERIALIZED (
      SELECT DISTINCT ON (x.id) x.id, poi.poi_rank, poi.id AS poi_id, x.d
      FROM poi CROSS JOIN LATERAL (
        SELECT i.id, (i.location::geography <-> poi.location::geography) AS d
        FROM imagery i
        WHERE ${Prisma.join(imagery, ' AND ')}
        ORDER BY 2
        LIMIT ${CATEGORY_RECORDS_PER_POI}
      ) x
      ORDER BY x.id, poi.poi_rank, x.d
    )`;
}

// With imagery distributed (Citus, which refuses a LATERAL read with its own LIMIT): the pairs within
// reach are one join of the pois with imagery (a probe of each shard's geography index per poi), ranked
// per poi above it (nearest first, then by id). It reads every record within CATEGORY_REACH_M of each poi,
// which made the search slower on one server with dense imagery (docs/scaling.md#citus), so only here.
function joinedHitsSql(imagery: Prisma.Sql[]): Prisma.Sql {
  return Prisma.sql`reach AS MATERIALIZED (
      SELECT i.id, poi.poi_rank, poi.id AS poi_id, (i.location::geography <-> poi.location::geography) AS d
      FROM poi JOIN imagery i ON ${Prisma.join(imagery, ' AND ')}
    ), hit AS MATERIALIZED (
      SELECT DISTINCT ON (x.id) x.id, x.poi_rank, x.poi_id, x.d
      FROM (
        SELECT r.*, row_number() OVER (PARTITION BY r.poi_rank ORDER BY r.d, r.id) AS k FROM reach r
      ) x
      WHERE x.k <= ${CATEGORY_RECORDS_PER_POI}
      ORDER BY x.id, x.poi_rank, x.d
    )`;
}
