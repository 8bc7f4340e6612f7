// `npm run bench:flood [-- options]`: what a flood costs the other clients. Our built server on the
// search benchmark's generated dataset; clients search with right keys at full speed, alone and then
// beside a flood from one other address (a child process, so the two loads do not share an event
// loop): wrong keys on POST /search, or GET /health/ready. Alternated, so both see the same machine.
// The target (docs/security.md#brute-force): the clients keep >= 80% of their rate alone.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { benchApiKeys, prepareDataset, withClient } from './bench-database';
import { DEFAULT_SEED } from './bench-dataset';
import { loadAverage, waitIdle } from './bench-environment';
import { processCpuMs, RunningServer, startServer } from './bench-load';

const ROOT = resolve(__dirname, '..', '..');
const DEFAULT_URL = 'postgresql://postgres@127.0.0.1:5432/lis_bench';
const HELP = `usage: npm run bench:flood -- [options]
  --records N          records in the generated (sparse) dataset (default 100000)
  --duration S         seconds per run (default 10)
  --connections N      the clients' connections (default 4)
  --flood N            the flood's connections (default 16)
  --rounds N           alone/flooded pairs per kind of flood (default 2)
  --answer-delay-ms N  the server's FLOOD_ANSWER_DELAY_MS (default: its own default; 0 answers a flood at once)
  --database-url URL   bench database (default $BENCH_DATABASE_URL or ${DEFAULT_URL})
  --help               this text`;

// The clients' address and the flood's, as a reverse proxy on loopback reports them (TRUST_PROXY).
const CLIENTS = '10.1.0.1';
const FLOODER = '10.9.0.1';
const WRONG_KEY = 'lis_wrong0000000000000000000000000000000000000000';

interface Flood {
  name: string;
  args: string[];
}

const floods = (base: string): Flood[] => [
  {
    name: 'wrong-key POST /search',
    args: [
      ...['-m', 'POST', '-H', `x-api-key=${WRONG_KEY}`, '-H', 'content-type=application/json'],
      ...['-b', '{"query":"Herrengasse 1"}', `${base}/search`],
    ],
  },
  { name: 'GET /health/ready', args: [`${base}/health/ready`] },
];

// Right-key searches for exact addresses of the dataset, keys and bodies rotated.
async function clientRun(base: string, keys: string[], addresses: string[], connections: number, seconds: number) {
  let n = 0;
  const result = await autocannon({
    url: `${base}/search`,
    connections,
    duration: seconds,
    requests: [
      {
        method: 'POST',
        setupRequest: (req) => {
          n++;
          return {
            ...req,
            headers: {
              'content-type': 'application/json',
              'x-api-key': keys[n % keys.length],
              'x-forwarded-for': CLIENTS,
            },
            body: JSON.stringify({ query: addresses[n % addresses.length], limit: 10 }),
          };
        },
      },
    ],
  });
  const ok = result['2xx'];
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`the clients got ${result.non2xx} non-2xx answers and ${result.errors} errors`);
  return { perSecond: ok / seconds, p99: result.latency.p99 };
}

// The flood as another process: autocannon's own command line, its answers counted by status.
function startFlood(flood: Flood, connections: number, seconds: number): Promise<string> {
  const bin = join(ROOT, 'node_modules', 'autocannon', 'autocannon.js');
  const args = [bin, '-j', '-c', String(connections), '-d', String(seconds), '-H', `x-forwarded-for=${FLOODER}`];
  const child = spawn(process.execPath, [...args, ...flood.args], { stdio: ['ignore', 'pipe', 'ignore'] });
  let out = '';
  child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
  return new Promise((done, fail) =>
    child.once('exit', (code) => {
      if (code !== 0) return fail(new Error(`the flood exited with ${code}`));
      const r = JSON.parse(out);
      done(`${Math.round(r.requests.total / seconds)} flood requests/s (2xx ${r['2xx']}, non-2xx ${r.non2xx})`);
    }),
  );
}

const transactions = (url: string) =>
  withClient(url, async (c) =>
    Number(
      (
        await c.query(
          'SELECT xact_commit + xact_rollback AS n FROM pg_stat_database WHERE datname = current_database()',
        )
      ).rows[0].n,
    ),
  );

async function pairs(server: RunningServer, url: string, o: Options, keys: string[], addresses: string[]) {
  for (const flood of floods(server.url)) {
    const ratios: number[] = [];
    for (let round = 0; round < o.rounds; round++) {
      await waitIdle(url);
      const alone = await clientRun(server.url, keys, addresses, o.connections, o.duration);
      await waitIdle(url);
      const cpu = processCpuMs(server.child.pid);
      const before = await transactions(url);
      const flooding = startFlood(flood, o.flood, o.duration);
      const beside = await clientRun(server.url, keys, addresses, o.connections, o.duration);
      const floodSummary = await flooding;
      const queries = (await transactions(url)) - before;
      const serverCpu = ((processCpuMs(server.child.pid) ?? 0) - (cpu ?? 0)) / 1000;
      server.assertRunning();
      ratios.push(beside.perSecond / alone.perSecond);
      console.log(
        `  ${flood.name}, round ${round + 1}: alone ${alone.perSecond.toFixed(0)} searches/s (p99 ${alone.p99} ms), ` +
          `beside the flood ${beside.perSecond.toFixed(0)}/s (p99 ${beside.p99} ms) = ${(100 * ratios.at(-1)!).toFixed(0)}%; ` +
          `${floodSummary}; database transactions in the flooded run ${queries}; server CPU ${serverCpu.toFixed(1)} s; ` +
          `load ${loadAverage().join(', ')}`,
      );
    }
    const worst = Math.min(...ratios);
    console.log(`${flood.name}: the clients kept ${(100 * worst).toFixed(0)}% at worst (target >= 80%)`);
  }
}

interface Options {
  duration: number;
  connections: number;
  flood: number;
  rounds: number;
}

async function main(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      records: { type: 'string', default: '100000' },
      duration: { type: 'string', default: '10' },
      connections: { type: 'string', default: '4' },
      flood: { type: 'string', default: '16' },
      rounds: { type: 'string', default: '2' },
      'answer-delay-ms': { type: 'string' },
      'database-url': { type: 'string', default: process.env.BENCH_DATABASE_URL || DEFAULT_URL },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) return console.log(HELP);
  const o: Options = {
    duration: Number(values.duration),
    connections: Number(values.connections),
    flood: Number(values.flood),
    rounds: Number(values.rounds),
  };
  const url = values['database-url'];
  const work = mkdtempSync(join(tmpdir(), 'lis-bench-flood-'));
  const log = (s: string) => console.log(`[bench:flood] ${s}`);
  try {
    await prepareDataset(url, DEFAULT_SEED, Number(values.records), false, work, log, 'sparse');
    const keys = await benchApiKeys(url, 4);
    const addresses = await withClient(url, async (c) =>
      (await c.query<{ address: string }>('SELECT address FROM imagery ORDER BY id LIMIT 200')).rows.map(
        (r) => r.address,
      ),
    );
    const out = join(ROOT, 'bench-results');
    mkdirSync(out, { recursive: true });
    const server = await startServer('ours', {
      databaseUrl: url,
      poolSize: 10,
      statementTimeoutMs: 2000,
      apiKey: keys[0],
      statementsFile: '',
      logFile: join(out, 'flood-server.log'),
      logLevel: 'warn',
      env: {
        TRUST_PROXY: 'loopback',
        ...(values['answer-delay-ms'] === undefined ? {} : { FLOOD_ANSWER_DELAY_MS: values['answer-delay-ms'] }),
      },
    });
    try {
      const held = values['answer-delay-ms'] ?? 'the default';
      log(
        `${o.connections} client connections, a flood of ${o.flood}, ${o.duration} s per run; FLOOD_ANSWER_DELAY_MS ${held}`,
      );
      await pairs(server, url, o, keys, addresses);
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
