import { Prisma } from '@prisma/client';
import { LatLon } from '../query/coordinates';
import { SearchFilters, SearchPlan } from '../planning/search-planner';
import { areaCountCap, PageWindow } from '../paging/search-limits';
import { filterConditions } from './filter-conditions.sql';
import { cellWalkSql, walksCells } from './cell-walk.sql';
import { ROW_COLUMNS, sortedPageSql } from './page-strategies.sql';
import { distanceSql, geography, planarPoint } from './spatial.sql';

// No text: the filters alone (a circle or a bbox is always among them, so the geometry GiST index
// applies), in one statement: count and page. Used for newest and oldest (imagery_captured_at_idx
// serves wide areas; a bbox or circle of up to a few hundred grid cells is read cell by cell, see
// cellWalkSql); nearest first goes through areaCountSql and nearestPageSql instead. Counted a few
// pages past the page as nearest first is (areaCountCap): a box over a dense block holds thousands
// of records, and counting up to COUNT_CAP of them cost far more than the page.
// Where imagery is distributed (Citus) the cell walk is not used: Citus cannot push down its LATERAL
// read per cell with a LIMIT.
export function areaSql(window: PageWindow, plan: SearchPlan, distributed = false): Prisma.Sql {
  if (!distributed && walksCells(plan, window)) return cellWalkSql(window, plan, areaCountCap(window));
  return sortedPageSql(window, plan, {
    match: null,
    score: Prisma.sql`0`,
    codeMatch: Prisma.sql`false`,
    cap: areaCountCap(window),
  });
}

// The matches of the filters, counted up to cap + 1 (see areaCountCap): the cost follows the cap, not
// how many records the circle holds. Read nearest first from the geometry GiST index (planar order
// is enough), which stops after cap + 1 rows within the circle's box: a bitmap scan, which the
// planner picked for a dense block about as often, lists every record in the box first (20,000 for a
// count of 101).
export function areaCountSql(plan: SearchPlan, cap: number): Prisma.Sql {
  const where = Prisma.join(filterConditions(plan.filters), ' AND ');
  const anchor = plan.anchor!;
  return Prisma.sql`SELECT count(*)::int AS total FROM (
      SELECT 1 FROM imagery i WHERE ${where}
      ORDER BY i.location <-> ${planarPoint(anchor)}
      LIMIT ${cap + 1}) c`;
}

// The page of a nearest-first search, given k = the position of its last row (at most the number
// of matches, so the scan never has to look beyond the radius). First the distance of the k-th
// nearest match, by a KNN walk of the geography GiST index (ORDER BY <-> alone: PostgreSQL cannot
// add the id tie-break to an index-ordered KNN scan); then every match up to that distance, which
// a bitmap scan of the same index finds, ordered by distance and id so ties never swap pages.
// Both leave out the box around the anchor's circle: with it the planner, which estimates a small
// box to hold a row or two, read every record in the box from the geometry index and sorted them
// (377 rows for a page of 10 on a dense street). k is at most the matches, so the walk never leaves
// the circle, and the page's rows lie within the k-th distance.
export function nearestPageSql(window: PageWindow, plan: SearchPlan, k: number): Prisma.Sql {
  const anchor = plan.anchor!;
  const distance = distanceSql(anchor);
  const others = filterConditions({ ...plan.filters, circles: plan.filters.circles.filter((c) => c !== anchor) });
  const walk = Prisma.join([...others, Prisma.sql`${distance} <= ${anchor.radiusM}::float8`], ' AND ');
  return Prisma.sql`
    WITH kth AS MATERIALIZED (
      SELECT max(n.d) AS d
      FROM (SELECT ${distance} AS d FROM imagery i WHERE ${walk} ORDER BY ${distance} LIMIT ${k}) n
    )
    SELECT ${ROW_COLUMNS}, 0::float8 AS score, ${distance}::float8 AS distance
    FROM imagery i, kth
    WHERE ${walk}
      AND ST_DWithin(i.location::geography, ${geography(anchor)}, kth.d + 1, false)
      AND ${distance} <= kth.d
    ORDER BY ${distance}, i.id
    LIMIT ${window.limit} OFFSET ${window.offset}`;
}

// Whether a nearest-first search is read by nearestWalkSql: its circle is the only filter.
export const walksNearest = (plan: SearchPlan) =>
  plan.anchor !== null && plan.filters.circles.length === 1 && filterConditions(plan.filters).length === 2;

// A nearest-first search whose circle is its only filter, in one statement that reads the records
// before its page once. First the circle's records, up to cap + 1, as areaCountSql reads them (the
// geometry GiST index within the circle's box). When the circle holds cap or fewer, they are all of
// them; else the cap + 1 records nearest the anchor by a KNN walk of the geography GiST index (no
// condition inside the walk, so it stops after cap + 1 rows: the planner, told of the circle, took a
// bitmap of every record in a dense block). The walk alone, where the circle holds few records, went
// on past the radius for its cap + 1 rows, however far away they lay. Those within the radius are
// counted and sorted by distance and id for the page. The walk orders by distance alone: records tied with its last
// one may lie past it, so when the circle holds more than the cap and the page reaches the walk's
// last distance (`tied`), the caller reads the page again with nearestPageSql.
export function nearestWalkSql(window: PageWindow, plan: SearchPlan, cap: number): Prisma.Sql {
  const anchor = plan.anchor!;
  const distance = distanceSql(anchor);
  return Prisma.sql`
    WITH circle AS MATERIALIZED (
      SELECT i.id, ${distance} AS d FROM imagery i WHERE ${Prisma.join(filterConditions(plan.filters), ' AND ')}
      ORDER BY i.location <-> ${planarPoint(anchor)} LIMIT ${cap + 1}
    ),
    walk AS MATERIALIZED (
      SELECT c.id, c.d FROM circle c WHERE (SELECT count(*) FROM circle) <= ${cap}
      UNION ALL
      (SELECT i.id, ${distance} AS d FROM imagery i WHERE (SELECT count(*) FROM circle) > ${cap}
      ORDER BY ${distance} LIMIT ${cap + 1})
    ),
    counted AS (
      SELECT count(*) FILTER (WHERE w.d <= ${anchor.radiusM}::float8)::int AS total, count(*) AS walked, max(w.d) AS last
      FROM walk w
    ),
    page AS (
      SELECT w.id, w.d FROM walk w WHERE w.d <= ${anchor.radiusM}::float8
      ORDER BY w.d, w.id LIMIT ${window.limit} OFFSET ${window.offset}
    )
    SELECT c.total, false AS "codeMatched", (c.walked > ${cap} AND p.distance >= c.last) AS tied, p.*
    FROM counted c
    LEFT JOIN LATERAL (
      SELECT ${ROW_COLUMNS}, 0::float8 AS score, n.d::float8 AS distance FROM page n JOIN imagery i ON i.id = n.id
    ) p ON true
    ORDER BY p.distance, p.id`;
}

// Among how many records nearest the point the nearest one passing the filters is looked for: a
// bound on the walk when the filters reject most records (without one, a filter that matches nothing
// would walk the whole index).
export const NEAREST_CANDIDATES = 1_000;

// The record nearest a point (outside the radius searched, so the filters hold no circle around it):
// a KNN walk of the geography GiST index, ORDER BY <-> LIMIT. Without filters the first record is
// the answer; with them, the nearest of the first NEAREST_CANDIDATES that passes them.
export function nearestRecordSql(point: LatLon, filters: SearchFilters): Prisma.Sql {
  const distance = distanceSql(point);
  const conditions = filterConditions(filters);
  if (conditions.length === 0) {
    return Prisma.sql`
      SELECT ${distance}::float8 AS distance, ST_Y(i.location) AS lat, ST_X(i.location) AS lon
      FROM imagery i ORDER BY ${distance} LIMIT 1`;
  }
  return Prisma.sql`
    SELECT i.distance, ST_Y(i.location) AS lat, ST_X(i.location) AS lon
    FROM (SELECT i.*, ${distance}::float8 AS distance FROM imagery i ORDER BY ${distance} LIMIT ${NEAREST_CANDIDATES}) i
    WHERE ${Prisma.join(conditions, ' AND ')}
    ORDER BY i.distance LIMIT 1`;
}
