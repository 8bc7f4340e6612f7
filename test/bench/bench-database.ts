// The bench database: created when missing, migrated by the app's migrator, loaded through the
// project's own importer (the built CLI) once per dataset, and the API keys of the runs. The machine and the
// database settings the report records: bench-environment.ts.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createWriteStream, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { finished } from 'node:stream/promises';
import { Client } from 'pg';
import { ApiKeyRepository } from '../../src/api-key/api-key.repository';
import { ApiKeyService } from '../../src/api-key/api-key.service';
import { loadConfig, RATE_LIMIT_MAX } from '../../src/config/app-config';
import { Migrator } from '../../src/database/migrator';
import { PrismaService } from '../../src/database/prisma.service';
import { toFeature } from '../helpers/imagery-files';
import { BenchDataset, benchRecords, datasetVersion } from './bench-dataset';
import { BENCH_PLACE_SOURCE, benchPlaceFeatures, seedWorldGazetteer } from './bench-search-places';

const ROOT = resolve(__dirname, '..', '..');
const IMPORT_CLI = join(ROOT, 'dist', 'src', 'cli', 'import.cli.js');
const IMPORT_PLACES_CLI = join(ROOT, 'dist', 'src', 'cli', 'import-places.cli.js');
const MARKER = 'bench_dataset';

export interface DatasetInfo {
  records: number;
  seed: number;
  /** False when the database already held this dataset and nothing was loaded. */
  loaded: boolean;
  importSeconds: number;
  importRate: number;
  importedAt: string;
}

export async function withClient<T>(url: string, fn: (c: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: url, application_name: 'lis-bench' });
  // A dropped connection (a database restart) fails the query in flight; without a listener the
  // 'error' event would also kill the process before it can stop its servers.
  client.on('error', () => undefined);
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

const maintenanceUrl = (url: string) => Object.assign(new URL(url), { pathname: '/postgres' }).toString();
const databaseName = (url: string) => decodeURIComponent(new URL(url).pathname.slice(1));

export async function ensureDatabase(url: string): Promise<void> {
  const name = databaseName(url);
  await withClient(maintenanceUrl(url), async (c) => {
    const { rowCount } = await c.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (rowCount === 0) await c.query(`CREATE DATABASE "${name.replace(/"/g, '""')}"`);
  });
}

async function markerOf(
  url: string,
): Promise<{ version: number; seed: number; records: number; import_seconds: number; imported_at: Date } | null> {
  return withClient(url, async (c) => {
    const exists = await c.query(`SELECT to_regclass('${MARKER}') IS NOT NULL AS e`);
    if (!exists.rows[0].e) return null;
    const { rows } = await c.query(`SELECT * FROM ${MARKER}`);
    return rows[0] ?? null;
  });
}

// Loads the dataset unless the database already holds exactly it (same generator version, seed and
// record count in the marker table, and that many rows). A database with imagery but no marker is
// someone else's: refused rather than emptied.
export async function prepareDataset(
  url: string,
  seed: number,
  records: number,
  reload: boolean,
  tmpDir: string,
  log: (s: string) => void,
  dataset: BenchDataset = 'sparse',
): Promise<DatasetInfo> {
  await ensureDatabase(url);
  await new Migrator(url).migrate();
  const marker = await markerOf(url);
  const count = await withClient(url, async (c) =>
    // Not the tile benchmark's city (tiles.bench.ts --city), which it keeps beside the dataset.
    Number(
      (
        await c.query(
          "SELECT count(*) AS n FROM imagery WHERE source IS DISTINCT FROM 'bench-city-streets' AND source IS DISTINCT FROM 'bench-city-random'",
        )
      ).rows[0].n,
    ),
  );
  if (
    !reload &&
    marker &&
    marker.version === datasetVersion(dataset) &&
    marker.seed === seed &&
    marker.records === records &&
    count === records
  ) {
    log(`dataset already loaded (${records.toLocaleString('en-US')} records, seed ${seed}); --reload to load it again`);
    const importSeconds = Number(marker.import_seconds);
    return {
      records,
      seed,
      loaded: false,
      importSeconds,
      importRate: Math.round(records / importSeconds),
      importedAt: marker.imported_at.toISOString(),
    };
  }
  if (count > 0 && !marker)
    throw new Error(`${databaseName(url)} holds imagery that the bench did not load; give another --database-url`);
  if (count > 0 || marker) {
    log(`emptying ${databaseName(url)} (another dataset was loaded)`);
    await withClient(maintenanceUrl(url), async (c) => {
      const name = `"${databaseName(url).replace(/"/g, '""')}"`;
      await c.query(`DROP DATABASE ${name} WITH (FORCE)`);
      await c.query(`CREATE DATABASE ${name}`);
    });
    await new Migrator(url).migrate();
  }

  const file = join(tmpDir, `bench-${seed}-${records}.ndjson`);
  const placesFile = join(tmpDir, `bench-${seed}-${records}-places.ndjson`);
  try {
    // Places first: the imagery importer links each record to its locality, region and country.
    let t = Date.now();
    const gazetteer = await seedWorldGazetteer(url);
    log(`world gazetteer: ${gazetteer.places.toLocaleString('en-US')} places in ${gazetteer.seconds.toFixed(1)} s`);
    t = Date.now();
    const places = await writeNdjson(placesFile, benchPlaceFeatures(seed, records, dataset));
    await runCli(IMPORT_PLACES_CLI, [placesFile, '--source', BENCH_PLACE_SOURCE], url, log);
    log(
      `${places.toLocaleString('en-US')} street and address places generated and imported in ${((Date.now() - t) / 1000).toFixed(1)} s`,
    );
    t = Date.now();
    await writeNdjson(
      file,
      (function* () {
        for (const r of benchRecords(seed, records, dataset)) yield toFeature(r);
      })(),
    );
    log(`generated ${records.toLocaleString('en-US')} records in ${((Date.now() - t) / 1000).toFixed(1)} s`);
    t = Date.now();
    await runCli(IMPORT_CLI, [file, '--source', 'bench'], url, log);
    const importSeconds = (Date.now() - t) / 1000;
    log(
      `imported in ${importSeconds.toFixed(1)} s (${Math.round(records / importSeconds).toLocaleString('en-US')} records/s); VACUUM ANALYZE`,
    );
    await withClient(url, async (c) => {
      // VACUUM as well as ANALYZE: the visibility map autovacuum would build soon after a bulk load.
      await c.query('VACUUM (ANALYZE) imagery');
      await c.query('VACUUM (ANALYZE) places');
      await c.query('ANALYZE');
      await c.query(
        `CREATE TABLE IF NOT EXISTS ${MARKER} (version int, seed int, records int, import_seconds float8, imported_at timestamptz)`,
      );
      await c.query(`DELETE FROM ${MARKER}`);
      await c.query(`INSERT INTO ${MARKER} VALUES ($1, $2, $3, $4, now())`, [
        datasetVersion(dataset),
        seed,
        records,
        importSeconds,
      ]);
    });
    return {
      records,
      seed,
      loaded: true,
      importSeconds,
      importRate: Math.round(records / importSeconds),
      importedAt: new Date().toISOString(),
    };
  } finally {
    rmSync(file, { force: true });
    rmSync(placesFile, { force: true });
  }
}

// NDJSON (one GeoJSON Feature per line), written with backpressure (a million records never sit in
// memory); returns how many lines.
async function writeNdjson(path: string, features: Iterable<object>): Promise<number> {
  const out = createWriteStream(path);
  let chunk = '';
  let n = 0;
  for (const f of features) {
    chunk += `${JSON.stringify(f)}\n`;
    n++;
    if (chunk.length > 256 * 1024) {
      if (!out.write(chunk)) await once(out, 'drain');
      chunk = '';
    }
  }
  out.end(chunk);
  await finished(out);
  return n;
}

// A built importer, as `npm run import` / `npm run import:places` run it.
function runCli(cli: string, args: string[], url: string, log: (s: string) => void): Promise<void> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, ['--max-old-space-size=256', cli, ...args], {
      env: { ...process.env, DATABASE_URL: url },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`${cli} exited with ${code}:\n${out.slice(-2000)}`));
      log(`  ${out.trim().split('\n').pop()}`);
      resolvePromise();
    });
  });
}

// Keys for our server, kept in the bench database between runs. Each gets the maximum per-key limit;
// requests rotate over them so no key reaches it (see keysNeeded).
export async function benchApiKeys(url: string, count: number): Promise<string[]> {
  const existing = await withClient(url, async (c) => {
    await c.query('CREATE TABLE IF NOT EXISTS bench_api_keys (key text PRIMARY KEY)');
    return (await c.query<{ key: string }>('SELECT key FROM bench_api_keys ORDER BY key')).rows.map((r) => r.key);
  });
  if (existing.length >= count) return existing.slice(0, count);
  const config = loadConfig({ DATABASE_URL: url, DB_POOL_SIZE: '1' });
  const prisma = new PrismaService(config);
  try {
    const service = new ApiKeyService(new ApiKeyRepository(prisma), config);
    for (let i = existing.length; i < count; i++) {
      const { key } = await service.create(`bench-${i + 1}`, RATE_LIMIT_MAX);
      await withClient(url, (c) => c.query('INSERT INTO bench_api_keys VALUES ($1)', [key]));
      existing.push(key);
    }
  } finally {
    await prisma.onModuleDestroy();
  }
  return existing;
}

// Enough keys for `peakRate` requests/s over a minute with half the limit to spare.
export const keysNeeded = (peakRate: number) => Math.max(2, Math.ceil((peakRate * 60 * 2) / RATE_LIMIT_MAX));
