// `npm run bench:tiles [-- options]`: latency and size of map tiles (GET /tiles/{z}/{x}/{y}.mvt) from our
// built server, at zooms 8, 12 and 16, over the densest imagery of the search benchmark's dataset (and,
// when an OpenStreetMap extract was imported into the same database, over its densest buildings).
// One request at a time (latency, not throughput), Accept-Encoding: gzip. See docs/benchmarks.md.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import { benchApiKeys, prepareDataset, withClient } from './bench-database';
import { BENCH_DATASETS, BenchDataset, DEFAULT_SEED } from './bench-dataset';
import { loadAverage, waitIdle } from './bench-environment';
import { startServer } from './bench-load';

const ROOT = resolve(__dirname, '..', '..');
const DEFAULT_URL = 'postgresql://postgres@127.0.0.1:5432/lis_bench';
const HELP = `usage: npm run bench:tiles -- [options]
  --records N          records in the generated dataset (default 1000000)
  --dataset NAME       sparse or dense (default dense); databases as npm run bench names them
  --rounds N           requests per tile (default 20); 9 tiles (3 x 3 around the densest point) per zoom
  --zooms LIST         zooms measured, comma-separated (default 8,12,16)
  --database-url URL   bench database (default $BENCH_DATABASE_URL or ${DEFAULT_URL}, + _dense for dense)
  --reload             generate and import again even if the dataset is already loaded
  --city N             also N images in one 6 x 6 km city (inserted by SQL, not the importer;
                       default 0): a zoom 12 tile over a million images
  --city-order ORDER   streets (along streets 30 m apart, in order; default) or random (the worst case)
  --help               this text`;

interface Area {
  name: string;
  lon: number;
  lat: number;
}

function tileOf(lon: number, lat: number, z: number): [number, number] {
  const n = 2 ** z;
  const rad = (lat * Math.PI) / 180;
  return [
    Math.floor(((lon + 180) / 360) * n),
    Math.floor(((1 - Math.log(Math.tan(rad) + 1 / Math.cos(rad)) / Math.PI) / 2) * n),
  ];
}

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];

// The densest imagery (the zoom 14 coverage cell with most images) and, if imported, the densest buildings.
async function areas(url: string): Promise<Area[]> {
  return withClient(url, async (c) => {
    const cells = await c.query('SELECT count(*)::int AS n FROM coverage_cells');
    if (cells.rows[0].n === 0) await c.query('SELECT lis_refresh_coverage()'); // a dataset loaded before tiles
    const out: Area[] = [];
    const dense = await c.query(
      `SELECT ST_X(p) AS lon, ST_Y(p) AS lat, count FROM (SELECT ST_Transform(geom, 4326) AS p, count FROM coverage_cells
       WHERE zoom = 14 ORDER BY count DESC LIMIT 1) s`,
    );
    if (dense.rows[0])
      out.push({ name: `densest imagery (${dense.rows[0].count} images in a 38 m cell)`, ...dense.rows[0] });
    const map = await c.query(
      `SELECT ST_X(p) AS lon, ST_Y(p) AS lat FROM (SELECT ST_Transform(ST_Centroid(ST_Collect(geom)), 4326) AS p FROM (
         SELECT geom FROM map_features WHERE layer = 'buildings' LIMIT 100000) b) s WHERE p IS NOT NULL`,
    );
    if (map.rows[0]) out.push({ name: 'centre of the imported buildings', ...map.rows[0] });
    const city = await c.query("SELECT count(*)::int AS n FROM imagery WHERE source LIKE 'bench-city%'");
    if (city.rows[0].n > 0) out.push({ name: `dense city (${city.rows[0].n} images in 6 x 6 km)`, ...CITY });
    return out;
  });
}

async function main(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      records: { type: 'string', default: '1000000' },
      dataset: { type: 'string', default: 'dense' },
      rounds: { type: 'string', default: '20' },
      zooms: { type: 'string', default: '8,12,16' },
      'database-url': { type: 'string', default: process.env.BENCH_DATABASE_URL || DEFAULT_URL },
      reload: { type: 'boolean', default: false },
      city: { type: 'string', default: '0' },
      'city-order': { type: 'string', default: 'streets' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) return console.log(HELP);
  const dataset = values.dataset as BenchDataset;
  if (!BENCH_DATASETS.includes(dataset)) throw new Error(`--dataset must be one of ${BENCH_DATASETS.join(', ')}`);
  const records = Number(values.records);
  const rounds = Number(values.rounds);
  const zooms = values.zooms.split(',').map(Number);
  if (zooms.some((z) => !Number.isInteger(z) || z < 0 || z > 20)) throw new Error('--zooms: whole numbers 0 to 20');
  const url =
    dataset === 'dense' && !argv.includes('--database-url')
      ? `${values['database-url']}_dense`
      : values['database-url'];
  const work = mkdtempSync(join(tmpdir(), 'lis-bench-tiles-'));
  const log = (s: string) => console.log(`[bench:tiles] ${s}`);
  try {
    await prepareDataset(url, DEFAULT_SEED, records, values.reload, work, log, dataset);
    await denseCity(url, Number(values.city), values['city-order'], log);
    const [apiKey] = await benchApiKeys(url, 1);
    process.env.TILES_PER_MINUTE = '100000';
    const out = join(ROOT, 'bench-results');
    mkdirSync(out, { recursive: true });
    const server = await startServer('ours', {
      databaseUrl: url,
      poolSize: 10,
      statementTimeoutMs: 2000,
      apiKey,
      statementsFile: '',
      logFile: join(out, 'tiles-server.log'),
    });
    try {
      await waitIdle(url);
      log(`load average before: ${loadAverage().join(', ')}`);
      for (const area of await areas(url)) {
        log(`${area.name}: ${area.lon.toFixed(5)}, ${area.lat.toFixed(5)}`);
        for (const z of zooms) console.log(await measure(server.url, area, z, rounds));
      }
      log(`load average after: ${loadAverage().join(', ')}`);
    } finally {
      await server.stop();
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

// N images in a 6 x 6 km square around Zurich (where the generated dataset has few), as sequences
// capture a city: along east-west streets 30 m apart, each street's images inserted in order along it
// (an import of sequences writes neighbours together), at random points along it; coverage rebuilt.
// `--city-order random` inserts them in random order instead: each image of a tile on a page of its
// own, the worst case for reading a tile. Kept between runs (the order is in the source's name).
const CITY = { lon: 8.54, lat: 47.37, halfDeg: 0.04 };
const STREET_DEG = 0.00027; // 30 m of latitude
async function denseCity(url: string, n: number, order: string, log: (s: string) => void): Promise<void> {
  const source = `bench-city-${order}`;
  await withClient(url, async (c) => {
    const have = Number((await c.query('SELECT count(*) AS n FROM imagery WHERE source = $1', [source])).rows[0].n);
    const other = Number(
      (await c.query("SELECT count(*) AS n FROM imagery WHERE source LIKE 'bench-city%' AND source <> $1", [source]))
        .rows[0].n,
    );
    if (have === n && other === 0) return;
    log(`dense city: ${n.toLocaleString('en-US')} images, ${order} order`);
    const started = Date.now();
    await c.query("DELETE FROM imagery WHERE source LIKE 'bench-city%'");
    await c.query(
      `INSERT INTO imagery (id, address, captured_at, heading, interactive, image_url, location, source)
       SELECT gen_random_uuid(), 'City ' || g, DATE '2020-01-01' + g % 1500, g % 360, g % 7 = 0,
              'https://img.test/c' || g || '.jpg', ST_SetSRID(ST_MakePoint(lon, lat), 4326), $2
       FROM (SELECT g, ${CITY.lon} + (random() * 2 - 1) * ${CITY.halfDeg} AS lon,
                    ${CITY.lat} + (floor(random() * ${Math.round((CITY.halfDeg * 0.68 * 2) / STREET_DEG)}) * ${STREET_DEG}
                                   - ${CITY.halfDeg * 0.68}) AS lat
             FROM generate_series(1, $1::int) g) p
       ORDER BY ${order === 'random' ? 'g' : 'lat, lon'}`,
      [n, source],
    );
    await c.query('VACUUM (ANALYZE) imagery');
    const t = Date.now();
    await c.query('SELECT lis_refresh_coverage()');
    log(
      `inserted in ${((t - started) / 1000).toFixed(1)} s; coverage rebuilt in ${((Date.now() - t) / 1000).toFixed(1)} s`,
    );
  });
}

// The 3 x 3 tiles around the area at zoom z, each requested `rounds` times (after one warm-up each).
async function measure(base: string, area: Area, z: number, rounds: number): Promise<string> {
  const [cx, cy] = tileOf(area.lon, area.lat, z);
  const paths = [-1, 0, 1].flatMap((dx) => [-1, 0, 1].map((dy) => `/tiles/${z}/${cx + dx}/${cy + dy}.mvt`));
  const ms: number[] = [];
  const sizes: Array<{ raw: number; gzip: number }> = [];
  for (const p of paths) {
    const raw = Buffer.from(
      await (await fetch(base + p, { headers: { 'accept-encoding': 'identity' } })).arrayBuffer(),
    );
    sizes.push({ raw: raw.length, gzip: raw.length === 0 ? 0 : gzipSync(raw).length });
  }
  for (let r = 0; r < rounds; r++)
    for (const p of paths) {
      const started = performance.now();
      const res = await fetch(base + p, { headers: { 'accept-encoding': 'gzip' } });
      await res.arrayBuffer();
      if (res.status !== 200 && res.status !== 204) throw new Error(`${p}: ${res.status}`);
      ms.push(performance.now() - started);
    }
  ms.sort((a, b) => a - b);
  const maxRaw = Math.max(...sizes.map((s) => s.raw));
  const maxGzip = Math.max(...sizes.map((s) => s.gzip));
  return `  z${z}: ${ms.length} requests, p50 ${quantile(ms, 0.5).toFixed(1)} ms, p99 ${quantile(ms, 0.99).toFixed(1)} ms, max ${ms[ms.length - 1].toFixed(1)} ms; largest tile ${(maxRaw / 1024).toFixed(1)} KB, ${(maxGzip / 1024).toFixed(1)} KB gzipped`;
}

main(process.argv.slice(2)).catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
