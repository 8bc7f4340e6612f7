// `npm run bench:stac [-- options]`: latency of the STAC item search (GET /stac/search) from our built
// server beside POST /search, on the search benchmark's generated dataset: a bbox over the densest
// imagery, a datetime range, free text `q`, and the cursor's pages deep into a walk against its first.
// One request at a time (latency, not throughput). See docs/stac.md.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { benchApiKeys, prepareDataset, withClient } from './bench-database';
import { BENCH_DATASETS, BenchDataset, DEFAULT_SEED } from './bench-dataset';
import { loadAverage, waitIdle } from './bench-environment';
import { startServer } from './bench-load';

const ROOT = resolve(__dirname, '..', '..');
const DEFAULT_URL = 'postgresql://postgres@127.0.0.1:5432/lis_bench';
const HELP = `usage: npm run bench:stac -- [options]
  --records N          records in the generated dataset (default 1000000)
  --dataset NAME       sparse or dense (default dense); databases as npm run bench names them
  --rounds N           requests per case (default 200)
  --pages N            pages walked for the deep-page case (default 100)
  --database-url URL   bench database (default $BENCH_DATABASE_URL or ${DEFAULT_URL}, + _dense for dense)
  --reload             generate and import again even if the dataset is already loaded
  --help               this text`;

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];

interface Case {
  name: string;
  path: string;
  body?: object;
}

// The densest imagery (the zoom 14 coverage cell with most images), a month of captures, an address.
async function cases(url: string): Promise<Case[]> {
  return withClient(url, async (c) => {
    const cells = await c.query('SELECT count(*)::int AS n FROM coverage_cells');
    if (cells.rows[0].n === 0) await c.query('SELECT lis_refresh_coverage()');
    const dense = await c.query(
      `SELECT ST_X(p) AS lon, ST_Y(p) AS lat FROM (SELECT ST_Transform(ST_Centroid(geom), 4326) AS p FROM coverage_cells
       WHERE zoom = 14 ORDER BY count DESC LIMIT 1) s`,
    );
    const { lon, lat } = dense.rows[0];
    const box = (d: number) => [lon - d, lat - d, lon + d, lat + d].map((v: number) => v.toFixed(5)).join(',');
    const inBox = await c.query(
      'SELECT count(*)::int AS n FROM imagery WHERE location && ST_MakeEnvelope($1, $2, $3, $4, 4326)',
      box(0.01).split(',').map(Number),
    );
    const month = await c.query(
      `SELECT to_char(date_trunc('month', max(captured_at)), 'YYYY-MM-DD') AS first FROM imagery`,
    );
    const first = month.rows[0].first as string;
    const [{ address }] = (await c.query('SELECT address FROM imagery ORDER BY id LIMIT 1')).rows;
    const q = encodeURIComponent(address);
    return [
      {
        name: `bbox, densest area (${inBox.rows[0].n} records in 0.02 degrees)`,
        path: `/stac/search?bbox=${box(0.01)}`,
      },
      { name: 'bbox, 0.2 degrees around it', path: `/stac/search?bbox=${box(0.1)}` },
      { name: `datetime, the last month (from ${first})`, path: `/stac/search?datetime=${first}T00:00:00Z/..` },
      { name: 'everything, newest first', path: '/stac/search' },
      { name: `q "${address}"`, path: `/stac/search?q=${q}` },
      { name: 'POST /search, the same text', path: '/search', body: { query: address, limit: 10 } },
    ];
  });
}

async function timed(base: string, apiKey: string, c: Case): Promise<number> {
  const started = performance.now();
  const res = await fetch(base + c.path, {
    method: c.body ? 'POST' : 'GET',
    headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
    body: c.body ? JSON.stringify(c.body) : undefined,
  });
  await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`${c.path}: ${res.status}`);
  return performance.now() - started;
}

function summary(name: string, ms: number[]): string {
  ms.sort((a, b) => a - b);
  return `  ${name}: ${ms.length} requests, p50 ${quantile(ms, 0.5).toFixed(1)} ms, p99 ${quantile(ms, 0.99).toFixed(1)} ms, max ${ms[ms.length - 1].toFixed(1)} ms`;
}

async function measure(base: string, apiKey: string, c: Case, rounds: number): Promise<string> {
  await timed(base, apiKey, c);
  const ms: number[] = [];
  for (let r = 0; r < rounds; r++) ms.push(await timed(base, apiKey, c));
  return summary(c.name, ms);
}

// The first page and the page `pages` deep of the whole catalogue newest first, each fetched `rounds` times.
async function deepPages(base: string, apiKey: string, pages: number, rounds: number): Promise<string[]> {
  let path = '/stac/search?limit=10';
  for (let p = 1; p < pages; p++) {
    const res = await fetch(base + path, { headers: { 'x-api-key': apiKey } });
    const next = ((await res.json()) as { links: Array<{ rel: string; href: string }> }).links.find(
      (l) => l.rel === 'next',
    );
    if (!next) throw new Error(`the walk ended at page ${p}`);
    path = new URL(next.href).pathname + new URL(next.href).search;
  }
  return [
    await measure(base, apiKey, { name: 'page 1 of the walk', path: '/stac/search?limit=10' }, rounds),
    await measure(base, apiKey, { name: `page ${pages} of the walk`, path }, rounds),
  ];
}

async function main(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      records: { type: 'string', default: '1000000' },
      dataset: { type: 'string', default: 'dense' },
      rounds: { type: 'string', default: '200' },
      pages: { type: 'string', default: '100' },
      'database-url': { type: 'string', default: process.env.BENCH_DATABASE_URL || DEFAULT_URL },
      reload: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) return console.log(HELP);
  const dataset = values.dataset as BenchDataset;
  if (!BENCH_DATASETS.includes(dataset)) throw new Error(`--dataset must be one of ${BENCH_DATASETS.join(', ')}`);
  const rounds = Number(values.rounds);
  const url =
    dataset === 'dense' && !argv.includes('--database-url')
      ? `${values['database-url']}_dense`
      : values['database-url'];
  const work = mkdtempSync(join(tmpdir(), 'lis-bench-stac-'));
  const log = (s: string) => console.log(`[bench:stac] ${s}`);
  try {
    await prepareDataset(url, DEFAULT_SEED, Number(values.records), values.reload, work, log, dataset);
    const [apiKey] = await benchApiKeys(url, 1);
    const out = join(ROOT, 'bench-results');
    mkdirSync(out, { recursive: true });
    const server = await startServer('ours', {
      databaseUrl: url,
      poolSize: 10,
      statementTimeoutMs: 2000,
      apiKey,
      statementsFile: '',
      logFile: join(out, 'stac-server.log'),
    });
    try {
      const measured = await cases(url);
      await waitIdle(url);
      log(`load average before: ${loadAverage().join(', ')}`);
      for (const c of measured) console.log(await measure(server.url, apiKey, c, rounds));
      for (const line of await deepPages(server.url, apiKey, Number(values.pages), rounds)) console.log(line);
      log(`load average after: ${loadAverage().join(', ')}`);
    } finally {
      await server.stop();
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
