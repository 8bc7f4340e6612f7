import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Test } from '@nestjs/testing';
import { Client } from 'pg';
import { generateApiKey } from '../../src/api-key/api-key-hash';
import { DatabaseModule } from '../../src/database/database.module';
import { Migrator } from '../../src/database/migrator';
import { FeatureItem } from '../../src/imagery/imagery-feature';
import { ImageryImportService } from '../../src/imagery/imagery-import.service';
import { ImageryModule } from '../../src/imagery/imagery.module';
import { writeImageryFile } from '../helpers/imagery-files';
import { ROOT } from '../helpers/processes';
import { startServiceProcess, ServiceProcess } from '../helpers/service-process';
import { feature, testConfig } from '../helpers/test-app';
import { createThrowawayDatabase, currentKind, serverUrl, ThrowawayDatabase } from '../setup/test-database';

// Fault injection: the built server in its own process under a bounded mixed load, while PostgreSQL
// ends its connections again and again (pg_terminate_backend: an administrator, a restart, an idle
// connection killer) and then refuses them (ALLOW_CONNECTIONS false). The process must live through it,
// answer only 200 or 503 with Retry-After, and serve again by itself once the database is back.
// Server only: the built-in database has neither. Its own database, so ending connections there
// touches nothing else.
const serverOnly = currentKind() === 'server' ? describe : describe.skip;

const QUERIES = {
  exact: 'Fault Lane 1',
  prefix: 'Fault La',
  misspelt: 'Fualt Lnae', // the corrections' best-effort statements: where the process used to die
  noMatch: 'qzxwvk plorg',
  coordinates: '47.14, 9.52',
};
type Kind = keyof typeof QUERIES | 'unknownKey';
const KINDS = [...Object.keys(QUERIES), 'unknownKey'] as Kind[];
const WORKERS = 4; // bounded: a loaded 2-core machine must still answer in time
const IMPORTED = 20_000; // enough that the import is still running when its connections are ended
const RECOVERY_MS = 20_000; // generous for a loaded machine; typically well under 2 s

interface Answer {
  kind: Kind;
  status: number; // 0: no HTTP answer at all
  retryAfter: string | null;
  code?: string;
}

serverOnly('database faults against the running service', () => {
  let db: ThrowawayDatabase;
  let admin: Client;
  let service: ServiceProcess;
  const key = generateApiKey();
  const dir = mkdtempSync(join(tmpdir(), 'lis-faults-'));
  const dbName = () => new URL(db.url).pathname.slice(1);
  const terminateBackends = () =>
    admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1', [dbName()]);
  const allowConnections = (allow: boolean) => admin.query(`ALTER DATABASE "${dbName()}" ALLOW_CONNECTIONS ${allow}`);
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

  async function search(kind: Kind): Promise<Answer> {
    const query = kind === 'unknownKey' ? QUERIES.exact : QUERIES[kind];
    try {
      const res = await fetch(`${service.base}/search`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': kind === 'unknownKey' ? generateApiKey() : key },
        body: JSON.stringify({ query }),
        signal: AbortSignal.timeout(30_000),
      });
      const body = (await res.json().catch(() => ({}))) as { error?: { code?: string } };
      return { kind, status: res.status, retryAfter: res.headers.get('retry-after'), code: body.error?.code };
    } catch {
      return { kind, status: 0, retryAfter: null };
    }
  }

  // WORKERS loops over every kind of request until stopped; each answer is kept.
  function startLoad() {
    const answers: Answer[] = [];
    const state = { running: true };
    const workers = Array.from({ length: WORKERS }, async (_, w) => {
      for (let i = w; state.running; i++) answers.push(await search(KINDS[i % KINDS.length]));
    });
    return {
      answers,
      stop: async () => {
        state.running = false;
        await Promise.all(workers);
      },
    };
  }

  // The built import tool into the same database: it may finish or fail, but only as a tool should
  // (exit 0, or 1 with a one-line error), never with a crash.
  function startImport() {
    const child = spawn(
      process.execPath,
      [resolve(ROOT, 'dist/src/cli/import.cli.js'), join(dir, 'import.ndjson'), '--source', 'faults', '--keep-indexes'],
      { env: { PATH: process.env.PATH, DATABASE_URL: db.url }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdout.resume();
    return new Promise<{ code: number | null; stderr: string }>((r) =>
      child.on('close', (code) => r({ code, stderr })),
    );
  }

  // Sequentially, every kind answers as it does with a healthy database.
  async function expectHealthy() {
    for (const kind of KINDS)
      expect(await search(kind)).toMatchObject({ kind, status: kind === 'unknownKey' ? 401 : 200 });
  }

  // The end of the service's log, without the request lines (each 503 logs one).
  const lastWords = () =>
    `${service.ended() ?? 'still running'}; its log ends:\n` +
    service
      .output()
      .split('\n')
      .filter((l) => !l.includes('"msg":"request failed"'))
      .slice(-15)
      .join('\n');

  async function timeToRecover(): Promise<number> {
    const started = Date.now();
    while (Date.now() - started < RECOVERY_MS) {
      if (service.ended()) throw new Error(`the service ended; ${lastWords()}`);
      if ((await search('exact')).status === 200) return Date.now() - started;
      await sleep(100);
    }
    throw new Error(`no recovery within ${RECOVERY_MS} ms; ${lastWords()}`);
  }

  beforeAll(async () => {
    db = await createThrowawayDatabase('server');
    admin = new Client({ connectionString: serverUrl() });
    await admin.connect();
    await new Migrator(db.url).migrate();
    const moduleRef = await Test.createTestingModule({
      imports: [DatabaseModule.forRoot(testConfig({ databaseUrl: db.url })), ImageryModule],
    }).compile();
    await moduleRef.init();
    try {
      async function* items(): AsyncGenerator<FeatureItem> {
        for (let i = 1; i <= 5; i++) yield { position: i, feature: feature(`Fault Lane ${i}`) };
      }
      await moduleRef.get(ImageryImportService).importFeatures(items(), { source: null });
    } finally {
      await moduleRef.close();
    }
    await writeImageryFile(join(dir, 'import.ndjson'), { records: IMPORTED, format: 'ndjson' });
    service = await startServiceProcess({
      DATABASE_URL: db.url,
      BOOTSTRAP_API_KEY: key,
      API_KEY_CACHE_SECONDS: '0', // every request looks its key up: the key lookup is under fault too
      RATE_LIMIT_PER_MINUTE: '100000',
      AUTH_FAILURES_PER_MINUTE: '10000',
      DB_CONNECT_TIMEOUT_MS: '2000',
    });
  }, 180_000);

  afterAll(async () => {
    await service?.stop();
    if (admin) {
      await allowConnections(true);
      await admin.end();
    }
    await db?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('lives through ended and refused connections, answers only 200/503 with Retry-After, and recovers by itself', async () => {
    await expectHealthy();
    const load = startLoad();
    const imported = startImport();
    const recoveries: number[] = [];
    try {
      // Connections ended again and again while searches of every kind are in flight.
      for (let round = 0; round < 8; round++) {
        await sleep(400);
        await terminateBackends();
      }
      recoveries.push(await timeToRecover());
      // Then the database refuses every connection for a while (SQLSTATE 55000), and comes back.
      await allowConnections(false);
      await terminateBackends();
      await sleep(2000);
      const refused = load.answers.length;
      await sleep(1000);
      await allowConnections(true);
      expect(load.answers.slice(refused).filter((a) => a.status === 200)).toEqual([]);
      recoveries.push(await timeToRecover());
      await sleep(1000); // load goes on after the recovery
    } finally {
      await load.stop();
    }
    const importRun = await imported;
    expect([0, 1]).toContain(importRun.code);
    expect(importRun.stderr).not.toMatch(/Unhandled|\n\s+at /);
    if (importRun.code === 1) expect(importRun.stderr).toMatch(/^error: the database is unavailable \(/m);

    expect({ ended: service.ended() }).toEqual({ ended: undefined });
    expect(service.output()).not.toMatch(/Unhandled 'error' event|uncaught/i);
    const unexpected = load.answers.filter((a) =>
      a.kind === 'unknownKey' ? ![401, 503].includes(a.status) : ![200, 503].includes(a.status),
    );
    expect(unexpected).toEqual([]);
    const unavailable = load.answers.filter((a) => a.status === 503);
    expect(unavailable.length).toBeGreaterThan(0); // the faults reached the requests
    expect(unavailable.filter((a) => a.retryAfter !== '5' || a.code !== 'DATABASE_UNAVAILABLE')).toEqual([]);
    for (const ms of recoveries) expect(ms).toBeLessThan(RECOVERY_MS);
    await expectHealthy();
    // For the record (the test's own log): how the load went.
    const count = (kind: Kind, status: number) => load.answers.filter((a) => a.kind === kind && a.status === status);
    console.log(
      `${load.answers.length} requests; ` +
        KINDS.map((k) => `${k} ${count(k, 200).length + count(k, 401).length}/${count(k, 503).length}`).join(', ') +
        ` (ok/503); recovered in ${recoveries.join(' and ')} ms; the import ended with ${importRun.code}: ` +
        (importRun.stderr.trim().split('\n').pop() ?? ''),
    );
  }, 180_000); // the faults take ~10 s; the bounds (recovery, an import that outlives them) are for a loaded machine
});
