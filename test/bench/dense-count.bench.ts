// EXPLAIN (ANALYZE, BUFFERS) of a nearest-first coordinate search at a point in a dense block: its
// count (capped a few pages ahead, areaCountCap; and, for comparison, up to COUNT_CAP as it was) and
// its page. The catalogue: `--records` records (default 200,000) jittered within `--spread` metres
// (default 300) of a point in Vaduz, and `--background` (default 200,000) spread over 20 km around it,
// so the planner sees the block as a small part of the catalogue; in its own database (created and
// migrated when missing, reloaded when it holds another count).
//   ts-node --transpile-only test/bench/dense-count.bench.ts [--records N] [--spread M] [--background N] [--full]
import { Migrator } from '../../src/database/migrator';
import { areaCountCap, COUNT_CAP } from '../../src/search/paging/search-limits';
import { Prisma } from '@prisma/client';
import { areaCountSql, nearestPageSql } from '../../src/search/sql/area-search.sql';
import { filterConditions } from '../../src/search/sql/filter-conditions.sql';
import { SearchPlan } from '../../src/search/planning/search-planner';
import { denseBlockSql, searchPlan } from '../helpers/query-plans';
import { ensureDatabase, withClient } from './bench-database';
import { explain, loadAverage } from './bench-environment';

const CENTRE = { lat: 47.1391, lon: 9.5209 };

function option(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : fallback;
}

async function load(url: string, records: number, spreadM: number, background: number): Promise<void> {
  await withClient(url, async (c) => {
    const { rows } = await c.query('SELECT count(*)::int AS n FROM imagery');
    if (rows[0].n === records + background) return;
    await c.query('TRUNCATE imagery');
    await c.query('SELECT setseed(0.36)');
    const dense = denseBlockSql(records, CENTRE, spreadM);
    await c.query(dense.text, dense.values);
    await c.query(
      `INSERT INTO imagery (id, address, captured_at, heading, interactive, image_url, location)
       SELECT gen_random_uuid(), 'Landstrasse ' || (g % 400), DATE '2012-01-01' + g % 3000, (g * 11) % 360, false,
              'https://img.test/b' || g || '.jpg', ST_SetSRID(ST_MakePoint($2 + 0.26 * (random() - 0.5), $3 + 0.18 * (random() - 0.5)), 4326)
       FROM generate_series(1, $1::int) g`,
      [background, CENTRE.lon, CENTRE.lat],
    );
    await c.query('VACUUM ANALYZE imagery');
  });
}

// The summary lines of an EXPLAIN: execution time and the top node's buffers.
const summary = (text: string) =>
  text
    .split('\n')
    .filter((l) => /Execution Time|^\s*Buffers|rows=.*loops/.test(l))
    .slice(0, 4)
    .join('\n');

// The count as it was before areaCountCap: up to COUNT_CAP + 1 rows, in any order.
function previousCountSql(plan: SearchPlan): Prisma.Sql {
  const where = Prisma.join(filterConditions(plan.filters), ' AND ');
  return Prisma.sql`SELECT count(*)::int AS total FROM (SELECT 1 FROM imagery i WHERE ${where} LIMIT ${COUNT_CAP + 1}) c`;
}

async function main() {
  const url = option('url', 'postgresql://postgres@127.0.0.1:5432/lis_bench_dense_count');
  const records = Number(option('records', '200000'));
  const spreadM = Number(option('spread', '300'));
  const background = Number(option('background', '200000'));
  await ensureDatabase(url);
  await new Migrator(url).migrate();
  await load(url, records, spreadM, background);
  const plan = searchPlan({ query: `${CENTRE.lat}, ${CENTRE.lon}` });
  const page = { limit: 10, offset: 0 };
  console.log(
    `${records} records within ${spreadM} m, ${background} around; radius ${plan.anchor!.radiusM} m; load ${loadAverage()}`,
  );
  const runs = [
    { name: `before: count up to COUNT_CAP (${COUNT_CAP}), any order`, sql: previousCountSql(plan) },
    { name: `after: count up to areaCountCap (${areaCountCap(page)})`, sql: areaCountSql(plan, areaCountCap(page)) },
    { name: 'after, page 50 of 100 (cap 5,900)', sql: areaCountSql(plan, areaCountCap({ limit: 100, offset: 4_900 })) },
    { name: 'page 1 (k = 10)', sql: nearestPageSql(page, plan, 10) },
  ];
  for (const run of runs) {
    const text = await explain(url, [run.sql]);
    console.log(`\n== ${run.name}\n${process.argv.includes('--full') ? text : summary(text)}`);
  }
  console.log(`\nload after: ${loadAverage()}`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
