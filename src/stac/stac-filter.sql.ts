import { Prisma } from '@prisma/client';
import { UNSOURCED_COLLECTION } from './stac-collection-id';
import { Comparison, Filter, Literal } from './stac-filter';

// A filter tree as SQL on imagery `i`. An item's datetime is its capture day at 00:00 UTC, so a
// comparison with an instant becomes one with a capture date, which the (captured_at, id) btree serves.
const DAY_MS = 86_400_000;

export function filterSql(filter: Filter): Prisma.Sql {
  switch (filter.op) {
    case 'and':
    case 'or':
      return Prisma.sql`(${Prisma.join(filter.args.map(filterSql), filter.op === 'and' ? ' AND ' : ' OR ')})`;
    case 'not':
      return Prisma.sql`NOT ${filterSql(filter.arg)}`;
    case 'isNull':
      // Every item has each queryable.
      return Prisma.sql`false`;
    default:
      return comparisonSql(filter.op, filter.property, filter.value);
  }
}

function comparisonSql(op: Comparison, property: string, value: Literal): Prisma.Sql {
  const sqlOp = Prisma.raw(op);
  switch (property) {
    case 'view:azimuth':
      return Prisma.sql`i.heading ${sqlOp} ${value as number}::float8`;
    case 'interactive':
      return Prisma.sql`i.interactive ${sqlOp} ${value as boolean}`;
    case 'collection':
      return Prisma.sql`coalesce(i.source, ${UNSOURCED_COLLECTION}) ${sqlOp} ${value as string}::text`;
    default:
      return datetimeSql(op, (value as { timestamp: number }).timestamp);
  }
}

// midnight(captured_at) <op> t, as a comparison of dates: midnight is exact at a day's start.
function datetimeSql(op: Comparison, t: number): Prisma.Sql {
  const floor = day(Math.floor(t / DAY_MS) * DAY_MS);
  const ceil = day(Math.ceil(t / DAY_MS) * DAY_MS);
  const exact = t % DAY_MS === 0;
  switch (op) {
    case '>=':
      return Prisma.sql`i.captured_at >= ${ceil}::date`;
    case '<':
      return Prisma.sql`i.captured_at < ${ceil}::date`;
    case '>':
      return Prisma.sql`i.captured_at > ${floor}::date`;
    case '<=':
      return Prisma.sql`i.captured_at <= ${floor}::date`;
    case '=':
      return exact ? Prisma.sql`i.captured_at = ${floor}::date` : Prisma.sql`false`;
    default:
      return exact ? Prisma.sql`i.captured_at <> ${floor}::date` : Prisma.sql`true`;
  }
}

// A PostgreSQL date for an instant (years 1 to 9999: RFC 3339 has four digits, and year 0 is none).
const FIRST_DAY = new Date(0).setUTCFullYear(1, 0, 1);

function day(ms: number): string {
  return new Date(Math.max(ms, FIRST_DAY)).toISOString().slice(0, 10);
}
