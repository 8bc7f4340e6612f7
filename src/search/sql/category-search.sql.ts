import { Prisma } from '@prisma/client';
import { circleBounds } from '../coordinates';
import type { Circle, SearchPlan } from '../search-filters';
import type { PageWindow } from '../search-limits';
import { filterConditions } from './filter-conditions.sql';
import { ROW_COLUMNS } from './page-strategies.sql';
import { geography } from './spatial.sql';

// The imagery at the points of interest of a category (a query such as "restaurant" or "hotel in
// Vaduz", see category-query.ts). Bounded work: at most CATEGORY_POIS pois are read (nearest the
// point first, or the most important), and of each at most CATEGORY_RECORDS_PER_POI records within
// CATEGORY_REACH_M of it, so one statement reads at most 100 pois and 2,000 records.
export const CATEGORY_POIS = 100;
export const CATEGORY_RECORDS_PER_POI = 20;
/** How near a record must be to a poi to show it: the poi's front door, not its street. */
export const CATEGORY_REACH_M = 50;

/** Where the pois are looked for: around a point (within its radius), and in a country. */
export interface CategoryArea {
  around: Circle | null;
  /** ISO 3166-1 alpha-2: pois of another country are left out (pois without one are kept). */
  country: string | null;
}

export function categoryImagerySql(tags: string[], area: CategoryArea, window: PageWindow, plan: SearchPlan) {
  // category IS NOT NULL spelt out: it is the condition of both partial indexes.
  const where: Prisma.Sql[] = [Prisma.sql`p.category IS NOT NULL`, Prisma.sql`p.category = ANY(${tags}::text[])`];
  let order = Prisma.sql`-p.importance`;
  let knn = Prisma.sql`-p.importance, p.id`;
  if (area.around) {
    const { west, south, east, north } = circleBounds(area.around, area.around.radiusM);
    const box = (w: number, e: number) =>
      Prisma.sql`p.location && ST_MakeEnvelope(${w}::float8, ${south}::float8, ${e}::float8, ${north}::float8, 4326)`;
    where.push(west <= east ? box(west, east) : Prisma.sql`(${box(west, 180)} OR ${box(-180, east)})`);
    where.push(
      Prisma.sql`ST_DWithin(p.location::geography, ${geography(area.around)}, ${area.around.radiusM}::float8)`,
    );
    order = Prisma.sql`(p.location::geography <-> ${geography(area.around)})`;
    // The GiST index walks the pois nearest the point first (planar order; the rank is the sphere's).
    knn = Prisma.sql`p.location <-> ST_SetSRID(ST_MakePoint(${area.around.lon}::float8, ${area.around.lat}::float8), 4326)`;
  }
  if (area.country) where.push(Prisma.sql`(p.country_code IS NULL OR p.country_code = ${area.country})`);
  const imagery = [
    Prisma.sql`ST_DWithin(i.location::geography, poi.location::geography, ${CATEGORY_REACH_M}::float8)`,
    ...filterConditions(plan.filters),
  ];
  return Prisma.sql`
    WITH poi AS MATERIALIZED (
      SELECT q.*, row_number() OVER (ORDER BY q.ord, q.id) AS poi_rank
      FROM (
        SELECT p.id, p.kind, p.name, p.label, p.alt_names, p.importance, p.location,
               ST_X(p.location) AS lon, ST_Y(p.location) AS lat, ${order}::float8 AS ord
        FROM places p
        WHERE ${Prisma.join(where, ' AND ')}
        ORDER BY ${knn}
        LIMIT ${CATEGORY_POIS}
      ) q
    ), hit AS MATERIALIZED (
      SELECT DISTINCT ON (x.id) x.id, poi.poi_rank, poi.id AS poi_id, x.d
      FROM poi CROSS JOIN LATERAL (
        SELECT i.id, (i.location::geography <-> poi.location::geography) AS d
        FROM imagery i
        WHERE ${Prisma.join(imagery, ' AND ')}
        ORDER BY 2
        LIMIT ${CATEGORY_RECORDS_PER_POI}
      ) x
      ORDER BY x.id, poi.poi_rank, x.d
    )
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
