import { Prisma } from '@prisma/client';
import { SearchPlan } from '../search-planner';
import { PageWindow } from '../search-limits';
import { filterConditions } from './filter-conditions.sql';
import { ROW_COLUMNS } from './page-strategies.sql';

// The grid of imagery_cell_captured_at_idx: cells of 1/500 degree (0.002: 222 m of latitude, 150 m
// of longitude at 47 degrees), a cell being (floor(lon * 500), floor(lat * 500)). The index holds
// (cell x, cell y, captured_at, id), so each cell's records are in page order, newest or oldest first.
// The expressions are written out, never bound, so the planner matches them to the index's.
export const CELLS_PER_DEGREE = 500;
const CELL_X = Prisma.raw(`floor(ST_X(i.location) * ${CELLS_PER_DEGREE})::int`);
const CELL_Y = Prisma.raw(`floor(ST_Y(i.location) * ${CELLS_PER_DEGREE})::int`);

// A box is walked cell by cell when it covers at most this many cells (a 1 km box: 25 to 48);
// wider boxes keep the single statement of sortedPageSql, where the planner's estimate of the box
// (good at that scale) picks the geometry index or a backward walk of imagery_captured_at_idx.
export const MAX_WALKED_CELLS = 64;

const cellRange = (from: number, to: number) => [
  Math.floor(from * CELLS_PER_DEGREE),
  Math.floor(to * CELLS_PER_DEGREE),
];

// Whether a search without text is read by cellWalkSql: newest or oldest first, a bbox (not across
// the antimeridian) covering at most MAX_WALKED_CELLS cells, and no circle (whose box condition would
// lead each cell's walk to the geometry index).
export function walksCells(plan: SearchPlan): boolean {
  const box = plan.filters.bbox;
  if (!box || box.west > box.east || plan.filters.circles.length > 0) return false;
  if (plan.sort !== 'newest' && plan.sort !== 'oldest') return false;
  const [x0, x1] = cellRange(box.west, box.east);
  const [y0, y1] = cellRange(box.south, box.north);
  return (x1 - x0 + 1) * (y1 - y0 + 1) <= MAX_WALKED_CELLS;
}

// A bbox newest (or oldest) first, counted like sortedPageSql (the first cap + 1 matches, from the
// geometry GiST index). A box holding cap or fewer is paged as sortedPageSql pages it: every match
// read and sorted. A box holding more (a city block holds thousands, and sorting them all was most of
// the statement) is read cell by cell: in each cell the box covers, the first offset + limit matches
// in page order from imagery_cell_captured_at_idx, then those merged, sorted by (captured_at, id) and
// paged. The page's rows are among their cells' first offset + limit, so it is the page sortedPageSql
// reads, ties included (id ends the order). Each cell's walk reads its records until it has found
// offset + limit in the box: a cell the box only grazes may read most of its records. The box test
// inside a cell's walk is _ST_Intersects, ST_Intersects without its index support, so the planner
// cannot turn the walk into a read of the whole box from the geometry index.
export function cellWalkSql(window: PageWindow, plan: SearchPlan, cap: number): Prisma.Sql {
  const box = plan.filters.bbox!;
  const where = Prisma.join(filterConditions(plan.filters), ' AND ');
  const envelope = Prisma.sql`ST_MakeEnvelope(${box.west}::float8, ${box.south}::float8, ${box.east}::float8, ${box.north}::float8, 4326)`;
  const inCell = Prisma.join(
    [
      Prisma.sql`${CELL_X} = cx`,
      Prisma.sql`${CELL_Y} = cy`,
      Prisma.sql`_ST_Intersects(i.location, ${envelope})`,
      ...filterConditions({ ...plan.filters, bbox: undefined }),
    ],
    ' AND ',
  );
  const dir = Prisma.raw(plan.sort === 'newest' ? 'DESC' : 'ASC');
  const [x0, x1] = cellRange(box.west, box.east);
  const [y0, y1] = cellRange(box.south, box.north);
  return Prisma.sql`
    SELECT t.total, false AS "codeMatched", p.*
    FROM (SELECT count(*)::int AS total FROM (SELECT 1 FROM imagery i WHERE ${where} LIMIT ${cap + 1}) c) t
    LEFT JOIN LATERAL (
      (SELECT ${ROW_COLUMNS}, 0::float8 AS score, NULL::float8 AS distance
       FROM imagery i
       WHERE t.total <= ${cap} AND ${where}
       ORDER BY i.captured_at ${dir}, i.id ${dir}
       LIMIT ${window.limit} OFFSET ${window.offset})
      UNION ALL
      (SELECT ${ROW_COLUMNS}, 0::float8 AS score, NULL::float8 AS distance
       FROM (
         SELECT w.id, w.captured_at
         FROM generate_series(${x0}::int, ${x1}::int) cx CROSS JOIN generate_series(${y0}::int, ${y1}::int) cy
         CROSS JOIN LATERAL (
           SELECT i.id, i.captured_at FROM imagery i WHERE ${inCell}
           ORDER BY i.captured_at ${dir}, i.id ${dir} LIMIT ${window.offset + window.limit}
         ) w
         WHERE t.total > ${cap}
         ORDER BY w.captured_at ${dir}, w.id ${dir}
         LIMIT ${window.limit} OFFSET ${window.offset}
       ) n JOIN imagery i ON i.id = n.id)
    ) p ON true
    ORDER BY p."capturedAt" ${dir}, p.id ${dir}`;
}
