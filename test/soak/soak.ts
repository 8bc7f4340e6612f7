// `npm run soak [-- --duration 60 --connections 50 --warmup 15]`: a bounded load test of the built
// server (dist/) against its own throwaway database, seeded with the demo seed (66,229 places).
// It mixes valid searches, invalid bodies and unauthorized requests, then checks: no 5xx, no socket
// errors or timeouts, and resident memory after the run within 10% of after warm-up. Exit 1 otherwise.
import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { Migrator } from '../../src/database/migrator';
import { demoFeatures } from '../../src/seed/demo-dataset';
import { chooseKind, createThrowawayDatabase } from '../setup/test-database';

const ROOT = path.resolve(__dirname, '..', '..');
const MAX_RSS_GROWTH = 0.1;

const { values: args } = parseArgs({
  options: {
    duration: { type: 'string', default: '60' },
    connections: { type: 'string', default: '50' },
    warmup: { type: 'string', default: '15' },
  },
});
const DURATION = boundedInt(args.duration, 'duration', 1, 600);
const CONNECTIONS = boundedInt(args.connections, 'connections', 1, 500);
const WARMUP = boundedInt(args.warmup, 'warmup', 1, 120);

function boundedInt(value: string | undefined, name: string, min: number, max: number): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < min || n > max)
    throw new Error(`--${name} must be an integer between ${min} and ${max}`);
  return n;
}

async function main(): Promise<number> {
  const dbName = `lis_soak_${process.pid}_${Date.now()}`;
  const db = await createThrowawayDatabase(await chooseKind());
  const dbUrl = db.url;
  const logPath = path.join(os.tmpdir(), `${dbName}.log`);
  const log = createWriteStream(logPath);
  let server: ChildProcess | undefined;
  let passed = false;
  try {
    step(`throwaway database: migrate and seed`);
    await new Migrator(dbUrl).migrate();
    await run('node', [path.join(ROOT, 'dist', 'prisma', 'seed.js')], { DATABASE_URL: dbUrl }, log);

    const port = await freePort();
    const apiKey = `lis_soak_${randomBytes(24).toString('base64url')}`;
    step(`server on 127.0.0.1:${port} (log: ${logPath})`);
    server = spawn('node', [path.join(ROOT, 'dist', 'src', 'main.js')], {
      env: {
        ...process.env,
        DATABASE_URL: dbUrl,
        PORT: String(port),
        HOST: '127.0.0.1',
        LOG_LEVEL: 'warn',
        BOOTSTRAP_API_KEY: apiKey,
        // The soak measures the service, not the limiter: one key may use it all. Failed
        // authentications keep the default per-address limit, so those turn into 429s under load.
        RATE_LIMIT_PER_MINUTE: '100000',
        REDIS_URL: '',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    server.stdout!.pipe(log);
    server.stderr!.pipe(log);
    const url = `http://127.0.0.1:${port}`;
    await waitReady(url, apiKey, server);

    const requests = requestMix(apiKey, await sampleQueries());
    step(`warm-up: ${WARMUP} s, ${CONNECTIONS} connections`);
    const warm = await load(url, requests, WARMUP);
    await settle();
    const rssWarm = rssKb(server.pid!);

    step(`soak: ${DURATION} s, ${CONNECTIONS} connections`);
    const result = await load(url, requests, DURATION);
    await settle();
    const rssAfter = rssKb(server.pid!);

    const growth = (rssAfter - rssWarm) / rssWarm;
    const statuses = Object.fromEntries(
      Object.entries(result.statusCodeStats ?? {}).map(([code, s]) => [code, s.count ?? 0]),
    );
    const fiveXx = Object.entries(statuses).reduce((n, [code, count]) => (code.startsWith('5') ? n + count : n), 0);
    const report = {
      duration_s: DURATION,
      connections: CONNECTIONS,
      requests: result.requests.total,
      requests_per_s: Math.round(result.requests.average),
      latency_ms: {
        p50: result.latency.p50,
        p97_5: result.latency.p97_5,
        p99: result.latency.p99,
        max: result.latency.max,
      },
      statuses,
      '5xx': fiveXx,
      socket_errors: result.errors,
      timeouts: result.timeouts,
      warmup_requests: warm.requests.total,
      rss_mb: { after_warmup: mb(rssWarm), after_run: mb(rssAfter), growth_pct: Math.round(growth * 1000) / 10 },
    };
    console.log(JSON.stringify(report, null, 2));

    const failures = [
      fiveXx > 0 && `${fiveXx} responses were 5xx`,
      result.errors > 0 && `${result.errors} socket errors`,
      result.timeouts > 0 && `${result.timeouts} timeouts`,
      growth > MAX_RSS_GROWTH && `resident memory grew ${report.rss_mb.growth_pct}% (limit ${MAX_RSS_GROWTH * 100}%)`,
      (statuses['200'] ?? 0) === 0 && 'no search succeeded',
    ].filter(Boolean);
    if (failures.length > 0) {
      console.error(`SOAK FAILED: ${failures.join('; ')} (server log: ${logPath})`);
      return 1;
    }
    console.log('SOAK PASSED');
    passed = true;
    return 0;
  } finally {
    if (server && server.exitCode === null) {
      server.kill('SIGTERM');
      await new Promise((r) => server!.once('exit', r));
    }
    log.end();
    if (passed) rmSync(logPath, { force: true });
    await db.drop();
  }
}

// Queries people would type for the seeded places: whole addresses, a city, a ZIP code, a prefix
// still being typed, a typo (the trigram fallback), and places that are not there.
async function sampleQueries(): Promise<string[]> {
  const addresses: string[] = [];
  let i = 0;
  for await (const item of demoFeatures()) {
    if (i++ % 97 === 0) addresses.push((item.feature as { properties: { address: string } }).properties.address);
  }
  const queries: string[] = [];
  for (const address of addresses) {
    const [place] = address.split(',');
    const zip = /\b\d{5}\b/.exec(address)?.[0];
    queries.push(address, place, place.slice(0, Math.max(3, place.length - 2)));
    if (zip) queries.push(zip);
    if (place.length > 5) queries.push(place.slice(0, 2) + place.slice(3)); // drop a letter
  }
  queries.push('Nowhere Qqqxz', 'zzzz 00000');
  return queries;
}

function requestMix(apiKey: string, queries: string[]): autocannon.Request[] {
  const json = { 'content-type': 'application/json' };
  const authed = { ...json, 'x-api-key': apiKey };
  let n = 0;
  const search: autocannon.Request = {
    method: 'POST',
    path: '/search',
    headers: authed,
    setupRequest: (req) => {
      n++;
      const body = { query: queries[n % queries.length], limit: 1 + (n % 20), page: 1 + (n % 3) };
      return { ...req, body: JSON.stringify(body) };
    },
  };
  const post = (headers: Record<string, string>, body: string): autocannon.Request => ({
    method: 'POST',
    path: '/search',
    headers,
    body,
  });
  // Per connection, in a loop: 7 valid searches, 2 invalid bodies, 1 unauthorized request.
  return [
    search,
    search,
    post(authed, '{"query": "Springfield", "limit": 0}'),
    search,
    search,
    post({}, '{"query":"Houston"}'),
    search,
    post(authed, '{"query": "Chicago",'),
    search,
    search,
  ];
}

function load(url: string, requests: autocannon.Request[], duration: number): Promise<autocannon.Result> {
  return autocannon({ url, connections: CONNECTIONS, duration, requests, timeout: 10 });
}

async function waitReady(url: string, apiKey: string, server: ChildProcess): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`server exited with ${server.exitCode}`);
    try {
      const res = await fetch(`${url}/search`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
        body: JSON.stringify({ query: 'Beverly Hills' }),
      });
      if (res.status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error('server did not become ready within 60 s');
}

function run(cmd: string, argv: string[], env: Record<string, string>, log: NodeJS.WritableStream): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, argv, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.on('data', (d) => process.stdout.write(`  ${d}`));
    child.stderr.pipe(log, { end: false });
    child.on('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`${cmd} ${argv.join(' ')} exited with ${code}`)),
    );
  });
}

function rssKb(pid: number): number {
  // ps rather than /proc, so it runs on macOS too.
  return Number(
    execFileSync('ps', ['-o', 'rss=', '-p', String(pid)])
      .toString()
      .trim(),
  );
}

function settle(): Promise<void> {
  return new Promise((r) => setTimeout(r, 3000));
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

const mb = (kb: number) => Math.round(kb / 102.4) / 10;
const step = (text: string) => console.log(`--- ${text}`);

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
