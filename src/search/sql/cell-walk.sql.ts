import { Prisma } from '@prisma/client';
import { Bounds, circleBounds } from './circle-bounds';
import { SearchFilters, SearchPlan } from '../planning/search-planner';
import { areaCountCap, PageWindow } from '../paging/search-limits';
import { filterConditions } from './filter-conditions.sql';
import { ROW_COLUMNS } from './page-strategies.sql';
import { distanceSql, planarPoint } from './spatial.sql';

// The grid of imagery_cell_captured_at_idx: cells of 1/500 degree (0.002: 222 m of latitude, 150 m
// of longitude at 47 degrees), a cell being (floor(lon * 500), floor(lat * 500)). The index holds
// (cell x, cell y, captured_at, id), so each cell's records are in page order, newest or oldest first.
// The expressions are written out, never bound, so the planner matches them to the index's.
export const CELLS_PER_DEGREE = 500;
const CELL_X = Prisma.raw(`floor(ST_X(i.location) * ${CELLS_PER_DEGREE})::int`);
const CELL_Y = Prisma.raw(`floor(ST_Y(i.location) * ${CELLS_PER_DEGREE})::int`);

const cellRange = (from: number, to: number) => [
  Math.floor(from * CELLS_PER_DEGREE),
  Math.floor(to * CELLS_PER_DEGREE),
];

// The cell walk reads at most (cells) x (offset + limit) rows, never more than its cells hold, and
// probes every cell it covers (an index descent, cheap where the cell is empty); sorting reads every
// match of the area, more than the count's cap when the walk runs, over a dense block many times
// more. An area is walked when that bound is at most this many times the cap. The cap being at most
// 10 x (offset + limit), no area of more than 10 x this many cells is walked: page 1 of a 2 km
// circle at 47 degrees is, its page 2 is not. Deeper pages admit fewer cells: where each cell holds
// about a page's worth, the walk reads about every row of the area, each a heap fetch, and sorting
// reads them cheaper in table order (docs/benchmarks.md#fig-cell-walk). Areas not walked
// keep sortedPageSql, where the planner's estimate of a wide area picks the geometry index or a
// backward walk of imagery_captured_at_idx.
export const CELL_READS_PER_COUNTED = 64;

// The box a cell walk covers: the bbox and every circle's bounding box (circleBounds, the box the
// circle's own filter tests), intersected; null when one of them crosses the antimeridian (or, near a
// pole, spans every longitude) or they do not meet.
export function walkedBox(filters: SearchFilters): Bounds | null {
  const boxes = [...(filters.bbox ? [filters.bbox] : []), ...filters.circles.map((c) => circleBounds(c, c.radiusM))];
  if (boxes.length === 0 || boxes.some((b) => b.west > b.east)) return null;
  const box = {
    west: Math.max(...boxes.map((b) => b.west)),
    south: Math.max(...boxes.map((b) => b.south)),
    east: Math.min(...boxes.map((b) => b.east)),
    north: Math.min(...boxes.map((b) => b.north)),
  };
  return box.west <= box.east && box.south <= box.north ? box : null;
}

// Whether a search without text is read by cellWalkSql: newest or oldest first, a bbox or a circle
// (a point's radius, near, looking_at) whose box (walkedBox) covers few enough cells for the page
// (CELL_READS_PER_COUNTED). At 47 degrees a 100 m circle covers 2 to 6 cells, a 250 m one 12 to 20,
// a 1 km one 126 to 150 and a 2 km one about 520; a 1 km box 25 to 48.
export function walksCells(plan: SearchPlan, window: PageWindow): boolean {
  if (plan.sort !== 'newest' && plan.sort !== 'oldest') return false;
  const box = walkedBox(plan.filters);
  if (!box) return false;
  const [x0, x1] = cellRange(box.west, box.east);
  const [y0, y1] = cellRange(box.south, box.north);
  const cells = (x1 - x0 + 1) * (y1 - y0 + 1);
  return cells * (window.offset + window.limit) <= CELL_READS_PER_COUNTED * areaCountCap(window);
}

// The columns ROW_COLUMNS reads (alias i), carried from the rows read to the page's.
const RAW_COLUMNS = Prisma.sql`i.id, i.address, i.captured_at, i.heading, i.interactive, i.image_url, i.location,
  i.place_id, i.locality_id`;

// A bbox or circle newest (or oldest) first, counted like sortedPageSql (the first cap + 1 matches,
// from the geometry GiST index, a circle's box tested as the bbox's: filterConditions' `exactBox`).
// They are read nearest the box's centre first, as areaCountSql reads a circle: an ordered index scan
// stops at the LIMIT, and a bitmap scan, which lists every match of the box first (a dense block's
// 20,000), then also needs a sort; unordered, the planner took the bitmap wherever its estimate of
// the box was within about ten times the cap, which sampled statistics of a dense block sometimes
// are. The rows are kept: an area holding cap or fewer is paged from them,
// sorted, without reading it again. An area holding more (a city block holds thousands, and reading and
// sorting them all was most of the statement) is read cell by cell: in each cell walkedBox covers, the
// first offset + limit matches in page order from imagery_cell_captured_at_idx, then those merged,
// sorted by (captured_at, id) and paged. The page's rows are among their cells' first offset + limit,
// so it is the page of every match sorted, ties included (id ends the order). Each cell's walk reads
// its records until it has found offset + limit in the box: a cell the box only grazes may read most
// of its records (a circle's corner cells, the most). Inside a cell's walk the filters are the same
// tests written without index support (filterConditions' `unindexed`: the bbox by _ST_Intersects, a
// circle's box by _ST_Intersects too, then its sphere distance), so the planner cannot turn the walk
// into a read of the whole area from the geometry index. Two reads of imagery, as sortedPageSql: each
// one the planner opens costs planning time.
export function cellWalkSql(window: PageWindow, plan: SearchPlan, cap: number): Prisma.Sql {
  const box = walkedBox(plan.filters)!;
  const centre = { lat: (box.south + box.north) / 2, lon: (box.west + box.east) / 2 };
  const where = Prisma.join(filterConditions(plan.filters, { exactBox: true }), ' AND ');
  const inCell = Prisma.join(
    [Prisma.sql`${CELL_X} = cx`, Prisma.sql`${CELL_Y} = cy`, ...filterConditions(plan.filters, { unindexed: true })],
    ' AND ',
  );
  const dir = Prisma.raw(plan.sort === 'newest' ? 'DESC' : 'ASC');
  const order = Prisma.sql`ORDER BY i.captured_at ${dir}, i.id ${dir}`;
  const [x0, x1] = cellRange(box.west, box.east);
  const [y0, y1] = cellRange(box.south, box.north);
  return Prisma.sql`
    WITH found AS MATERIALIZED (
      SELECT ${RAW_COLUMNS} FROM imagery i WHERE ${where} ORDER BY i.location <-> ${planarPoint(centre)} LIMIT ${cap + 1}),
    counted AS MATERIALIZED (SELECT count(*)::int AS total FROM found),
    page AS (
      (SELECT * FROM found i WHERE (SELECT total FROM counted) <= ${cap}
       ${order} LIMIT ${window.limit} OFFSET ${window.offset})
      UNION ALL
      (SELECT i.* FROM generate_series(${x0}::int, ${x1}::int) cx CROSS JOIN generate_series(${y0}::int, ${y1}::int) cy
       CROSS JOIN LATERAL (
         SELECT ${RAW_COLUMNS} FROM imagery i WHERE ${inCell} ${order} LIMIT ${window.offset + window.limit}
       ) i
       WHERE (SELECT total FROM counted) > ${cap}
       ${order} LIMIT ${window.limit} OFFSET ${window.offset})
    )
    SELECT c.total, false AS "codeMatched", p.*
    FROM counted c
    LEFT JOIN LATERAL (
      SELECT ${ROW_COLUMNS}, 0::float8 AS score, ${distanceSql(plan.anchor)}::float8 AS distance FROM page i
    ) p ON true
    ORDER BY p."capturedAt" ${dir}, p.id ${dir}`;
}
