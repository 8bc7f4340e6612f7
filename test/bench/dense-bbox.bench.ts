// A bbox or circle search without text, newest (or oldest) first: the statement before the per-cell
// walk (sortedPageSql over the area) and now (areaSql: cellWalkSql for an area of a few cells), run
// alternately on one connection with the request session options, median wall time of each, and
// EXPLAIN (ANALYZE, BUFFERS) of both with --explain. Either on a database loaded by
// `npm run bench -- --dataset dense` (--url, boxes given), or with --block on a database of its own
// holding the plan test's catalogue (test/medium/dense-area-plans.spec.ts: 50,000 records on a grid
// around Vaduz and 20,000 in a 200 m disc; created, migrated and loaded when missing).
// A circle is a coordinate search (`query: "lat, lon"`) with `near: { radius_m }`. --add-block adds
// the plan test's 20,000-record block to a database loaded by the bench (once). --walk makes the new
// statement cellWalkSql even where walksCells keeps the sort (to measure a walk past the bound).
//   ts-node --transpile-only test/bench/dense-bbox.bench.ts --url URL [--block | --add-block]
//     [--box w,s,e,n]... [--circle lat,lon,radius_m]... [--sort newest|oldest] [--page N] [--runs N]
//     [--walk] [--explain]
import { Client } from 'pg';
import { Prisma, PrismaClient } from '@prisma/client';
import { PrismaPg } from '@prisma/adapter-pg';
import { Migrator } from '../../src/database/migrator';
import { SESSION_OPTIONS } from '../../src/database/session-options';
import { areaCountCap } from '../../src/search/paging/search-limits';
import { areaSql } from '../../src/search/sql/area-search.sql';
import { CELLS_PER_DEGREE, cellWalkSql, walkedBox, walksCells } from '../../src/search/sql/cell-walk.sql';
import { filterConditions } from '../../src/search/sql/filter-conditions.sql';
import { sortedPageSql } from '../../src/search/sql/page-strategies.sql';
import { denseBlockSql, searchPlan, seedPlanCatalogue } from '../helpers/query-plans';
import { ensureDatabase, withClient } from './bench-database';
import { loadAverage } from './bench-environment';

const CENTRE = { lat: 47.1391, lon: 9.5209 };
type Box = [number, number, number, number];
const args = process.argv.slice(2);
const option = (name: string, fallback: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : fallback;
};
const options = (name: string) => args.flatMap((a, i) => (a === `--${name}` ? [args[i + 1]] : []));

// The block's 300 x 300 m box, as the plan test asks it.
function blockBox(): Box {
  const dLat = 150 / 111_320;
  const dLon = 150 / (111_320 * Math.cos((CENTRE.lat * Math.PI) / 180));
  return [CENTRE.lon - dLon, CENTRE.lat - dLat, CENTRE.lon + dLon, CENTRE.lat + dLat];
}

async function loadBlock(url: string): Promise<void> {
  const count = await withClient(url, async (c) => (await c.query('SELECT count(*)::int AS n FROM imagery')).rows[0].n);
  if (count === 70_000) return;
  const prisma = new PrismaClient({ adapter: new PrismaPg({ connectionString: url }) });
  try {
    await prisma.$executeRawUnsafe('TRUNCATE imagery');
    await seedPlanCatalogue(prisma, 50_000);
    const dense = denseBlockSql(20_000, CENTRE, 200);
    await prisma.$transaction([
      prisma.$queryRawUnsafe('SELECT setseed(0.36)::text AS seeded'),
      prisma.$executeRawUnsafe(dense.text, ...dense.values),
    ]);
    await prisma.$executeRawUnsafe('VACUUM ANALYZE imagery');
  } finally {
    await prisma.$disconnect();
  }
}

// The plan test's block added to a database the bench loaded (its own images, 'https://img.test/d...').
async function addBlock(url: string): Promise<void> {
  const added = await withClient(url, async (c) => {
    const { rowCount } = await c.query(`SELECT 1 FROM imagery WHERE image_url LIKE 'https://img.test/d%' LIMIT 1`);
    if (rowCount) return false;
    const dense = denseBlockSql(20_000, CENTRE, 200);
    await c.query('BEGIN');
    await c.query('SELECT setseed(0.36)');
    await c.query(dense.text, dense.values);
    await c.query('COMMIT');
    return true;
  });
  if (added) await withClient(url, (c) => c.query('VACUUM ANALYZE imagery'));
}

// The statement before the per-cell walk: every match in the box read and sorted.
const before = (window: { limit: number; offset: number }, body: Parameters<typeof searchPlan>[0]): Prisma.Sql =>
  sortedPageSql(window, searchPlan(body), {
    match: null,
    score: Prisma.sql`0`,
    codeMatch: Prisma.sql`false`,
    cap: areaCountCap(window),
  });

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

// Wall time at the client (scheduling on a loaded machine included), then the server's own execution
// time from EXPLAIN (ANALYZE, TIMING OFF) of the same statement.
async function timed(c: Client, sql: Prisma.Sql): Promise<{ ms: number; server: number; ids: string[] }> {
  const start = process.hrtime.bigint();
  const { rows } = await c.query(sql.text, sql.values);
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  const explained = await c.query(`EXPLAIN (ANALYZE, TIMING OFF, FORMAT JSON) ${sql.text}`, sql.values);
  return { ms, server: explained.rows[0]['QUERY PLAN'][0]['Execution Time'], ids: rows.map((r) => r.id) };
}

// The cells the walk covers, whether walksCells walks them, and the matches of the filters.
async function described(c: Client, plan: ReturnType<typeof searchPlan>, window: { limit: number; offset: number }) {
  const box = walkedBox(plan.filters);
  const cells = box
    ? (Math.floor(box.east * CELLS_PER_DEGREE) - Math.floor(box.west * CELLS_PER_DEGREE) + 1) *
      (Math.floor(box.north * CELLS_PER_DEGREE) - Math.floor(box.south * CELLS_PER_DEGREE) + 1)
    : 0;
  const where = Prisma.join(filterConditions(plan.filters), ' AND ');
  const count = Prisma.sql`SELECT count(*)::int AS n FROM imagery i WHERE ${where}`;
  const { rows } = await c.query(count.text, count.values);
  return `${cells} cells, ${walksCells(plan, window) ? 'walked' : 'sorted'} by the rule, ${rows[0].n} matches`;
}

async function main() {
  const url = option('url', 'postgresql://postgres@127.0.0.1:5432/h36_block');
  const block = args.includes('--block');
  if (block) {
    await ensureDatabase(url);
    await new Migrator(url).migrate();
    await loadBlock(url);
  }
  if (args.includes('--add-block')) await addBlock(url);
  type Body = Parameters<typeof searchPlan>[0];
  const areas: Array<{ name: string; body: Body }> = options('box').map((b) => {
    const bbox = b.split(',').map(Number) as Box;
    return { name: `bbox ${bbox.map((n) => n.toFixed(6)).join(',')}`, body: { bbox } };
  });
  for (const c of options('circle')) {
    const [lat, lon, radius] = c.split(',').map(Number);
    areas.push({
      name: `circle ${lat},${lon} ${radius} m`,
      body: { query: `${lat}, ${lon}`, near: { radius_m: radius } },
    });
  }
  if (block && areas.length === 0) areas.push({ name: 'the block box', body: { bbox: blockBox() } });
  const sort = option('sort', 'newest') as 'newest' | 'oldest';
  const page = Number(option('page', '1'));
  const runs = Number(option('runs', '21'));
  const window = { limit: 10, offset: (page - 1) * 10 };
  const c = new Client({ connectionString: url });
  await c.connect();
  try {
    for (const o of SESSION_OPTIONS.split('-c ').filter((x) => x.trim())) {
      const [name, value] = o.trim().split('=');
      await c.query('SELECT set_config($1, $2, false)', [name, value]);
    }
    for (const area of areas) {
      const body = { ...area.body, sort };
      const plan = searchPlan(body);
      const forced = args.includes('--walk');
      const statements = {
        before: before(window, body),
        after: forced ? cellWalkSql(window, plan, areaCountCap(window)) : areaSql(window, plan),
      };
      const times = { before: [] as number[], after: [] as number[] };
      const server = { before: [] as number[], after: [] as number[] };
      const loadBefore = loadAverage();
      for (let r = 0; r < runs + 1; r++) {
        const a = await timed(c, statements.before);
        const b = await timed(c, statements.after);
        if (a.ids.join() !== b.ids.join()) throw new Error(`pages differ for ${area.name}`);
        if (r === 0) continue; // the first of each warms the connection's caches
        times.before.push(a.ms);
        times.after.push(b.ms);
        server.before.push(a.server);
        server.after.push(b.server);
      }
      const line = (k: 'before' | 'after') =>
        `${k} median ${median(times[k]).toFixed(2)} ms (server ${median(server[k]).toFixed(2)})`;
      console.log(
        `${area.name} ${sort} page ${page} (${await described(c, plan, window)}): ${line('before')}, ${line('after')}` +
          `${forced ? ' (the walk forced)' : ''} ` +
          `(${runs} runs each, alternated; load ${loadBefore.join(' ')} -> ${loadAverage().join(' ')}; same pages)`,
      );
      if (!args.includes('--explain')) continue;
      for (const k of ['before', 'after'] as const) {
        const { rows } = await c.query(`EXPLAIN (ANALYZE, BUFFERS) ${statements[k].text}`, statements[k].values);
        console.log(`\n-- ${k}\n${rows.map((r) => r['QUERY PLAN']).join('\n')}\n`);
      }
    }
  } finally {
    await c.end();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
