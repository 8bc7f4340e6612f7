// `npm run bench [-- options]`: search throughput and latency of our server against a bare
// node:http + pg "ceiling" running the very same SQL, and a naive Express + ILIKE peer, per query
// class, on a generated catalogue loaded through our own importer. See docs/benchmarks.md.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { benchApiKeys, keysNeeded, prepareDataset } from './bench-database';
import { environment, explain, loadAverage, waitIdle } from './bench-environment';
import { BENCH_DATASETS, BenchDataset, DEFAULT_SEED } from './bench-dataset';
import { measureCell } from './bench-cells';
import { checkBodies, CheckResult, RssSampler, runLoad, RunningServer, startServer } from './bench-load';
import { QUERY_CLASSES, QueryClass, queryBodies } from './bench-queries';
import { BenchReport, Cell, consoleTable, evaluateTargets, targetLines, writeReport } from './bench-report';
import { SERVER_KINDS, ServerKind } from './bench-servers';
import { recordStatements, RecordedRequest } from './bench-statements';

const ROOT = resolve(__dirname, '..', '..');
const DEFAULT_URL = 'postgresql://postgres@127.0.0.1:5432/lis_bench';
// Requests/s the keys must cover (see keysNeeded): far above what one machine serves.
const PEAK_RATE = 10_000;
const CHECKED_PER_CLASS = 10;
const WARMUP_S = 1;

const HELP = `usage: npm run bench -- [options]
  --records N          records in the generated dataset (default 1000000)
  --seed N             dataset seed (default ${DEFAULT_SEED})
  --dataset NAME       sparse (a few captures per house) or dense (an image every 3-5 m along
                       every street, 2-3 passes); default sparse. The dense set's database
                       defaults to the sparse one's name + _dense
  --duration S         seconds of load per class, concurrency and server (default 10)
  --connections LIST   concurrencies, comma-separated (default 1,16,64; 1 measures latency alone)
  --classes LIST       query classes to run (default all: ${QUERY_CLASSES.join(',')})
  --servers LIST       servers to measure (default all: ${SERVER_KINDS.join(',')}; ours always starts)
  --bodies N           different request bodies per class (default 100)
  --pool-size N        database pool of every server (default 10, DB_POOL_SIZE's default)
  --database-url URL   bench database (default $BENCH_DATABASE_URL or ${DEFAULT_URL});
                       created if missing; reloaded only when it holds another dataset
  --reload             generate and import again even if the dataset is already loaded
  --log-level LEVEL    LOG_LEVEL for our server (default: unset, the shipped default)
  --out DIR            where results go (default bench-results/)
  --docs               write into docs/benchmarks/ instead (a run to commit)
  --help               this text`;

function positiveInt(value: string, name: string, max = Number.MAX_SAFE_INTEGER): number {
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n < 1 || n > max)
    throw new Error(`--${name} must be an integer between 1 and ${max}`);
  return n;
}

function options(argv: string[]) {
  const { values } = parseArgs({
    args: argv,
    options: {
      records: { type: 'string', default: '1000000' },
      seed: { type: 'string', default: String(DEFAULT_SEED) },
      dataset: { type: 'string', default: 'sparse' },
      duration: { type: 'string', default: '10' },
      connections: { type: 'string', default: '1,16,64' },
      classes: { type: 'string', default: QUERY_CLASSES.join(',') },
      servers: { type: 'string', default: SERVER_KINDS.join(',') },
      bodies: { type: 'string', default: '100' },
      'pool-size': { type: 'string', default: '10' },
      'database-url': { type: 'string', default: process.env.BENCH_DATABASE_URL || DEFAULT_URL },
      reload: { type: 'boolean', default: false },
      'log-level': { type: 'string' },
      out: { type: 'string', default: 'bench-results' },
      docs: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
  const classes = values.classes.split(',').map((c) => c.trim()) as QueryClass[];
  const dataset = values.dataset as BenchDataset;
  if (!BENCH_DATASETS.includes(dataset)) throw new Error(`--dataset must be one of ${BENCH_DATASETS.join(', ')}`);
  const unknown = classes.filter((c) => !QUERY_CLASSES.includes(c));
  if (unknown.length > 0) throw new Error(`unknown class ${unknown.join(', ')}; known: ${QUERY_CLASSES.join(', ')}`);
  const kinds = values.servers.split(',').map((k) => k.trim()) as ServerKind[];
  const unknownKinds = kinds.filter((k) => !SERVER_KINDS.includes(k));
  if (unknownKinds.length > 0)
    throw new Error(`unknown server ${unknownKinds.join(', ')}; known: ${SERVER_KINDS.join(', ')}`);
  return {
    help: values.help,
    records: positiveInt(values.records, 'records', 100_000_000),
    seed: positiveInt(values.seed, 'seed'),
    dataset,
    duration: positiveInt(values.duration, 'duration', 3600),
    connections: values.connections.split(',').map((c) => positiveInt(c.trim(), 'connections', 1000)),
    classes,
    // Ours is checked and warmed before the runs, so it starts even when not measured.
    servers: SERVER_KINDS.filter((k) => k === 'ours' || kinds.includes(k)),
    measured: SERVER_KINDS.filter((k) => kinds.includes(k)),
    bodies: positiveInt(values.bodies, 'bodies', 10_000),
    poolSize: positiveInt(values['pool-size'], 'pool-size', 100),
    databaseUrl:
      dataset === 'dense' && !argv.includes('--database-url')
        ? `${values['database-url']}_dense`
        : values['database-url'],
    reload: values.reload,
    logLevel: values['log-level'],
    out: resolve(ROOT, values.docs ? 'docs/benchmarks' : values.out),
  };
}

const started = Date.now();
function step(message: string): void {
  console.log(`[bench ${((Date.now() - started) / 1000).toFixed(0).padStart(4)} s] ${message}`);
}

export async function main(argv: string[]): Promise<BenchReport | undefined> {
  const o = options(argv);
  if (o.help) {
    console.log(HELP);
    return undefined;
  }
  const startedAt = new Date().toISOString();
  const loadAverageBefore = loadAverage();
  const work = mkdtempSync(join(tmpdir(), 'lis-bench-'));
  mkdirSync(o.out, { recursive: true });
  const servers: RunningServer[] = [];
  let sampler: RssSampler | undefined;
  try {
    step(
      `dataset: ${o.records.toLocaleString('en-US')} records, seed ${o.seed}, database ${new URL(o.databaseUrl).pathname.slice(1)}`,
    );
    const dataset = await prepareDataset(o.databaseUrl, o.seed, o.records, o.reload, work, step, o.dataset);

    step('query classes and the statements our service sends for them');
    const all = queryBodies(o.seed, o.records, o.bodies, o.dataset);
    const recorded = {} as Record<QueryClass, RecordedRequest[]>;
    for (const cls of o.classes) recorded[cls] = await recordStatements(o.databaseUrl, o.poolSize, all[cls]);
    const statementsFile = join(work, 'statements.json');
    writeFileSync(statementsFile, JSON.stringify(o.classes.flatMap((c) => recorded[c])));

    step('environment and EXPLAIN (ANALYZE, BUFFERS) per class');
    const env = await environment(o.databaseUrl);
    const explains: Record<string, string> = {};
    for (const cls of o.classes) explains[cls] = await explain(o.databaseUrl, recorded[cls][0].statements);
    const keys = await benchApiKeys(o.databaseUrl, keysNeeded(PEAK_RATE));

    step(`starting ${o.servers.join(', ')}`);
    const serverOptions = {
      databaseUrl: o.databaseUrl,
      poolSize: o.poolSize,
      statementTimeoutMs: 2000,
      apiKey: keys[0],
      statementsFile,
      logFile: join(o.out, 'servers.log'),
      logLevel: o.logLevel,
    };
    rmSync(serverOptions.logFile, { force: true });
    // In parallel (ts-node start-up is slow); pushed as they come so `finally` stops whatever started.
    await Promise.all(o.servers.map(async (kind) => servers.push(await startServer(kind, serverOptions))));
    servers.sort((a, b) => SERVER_KINDS.indexOf(a.kind) - SERVER_KINDS.indexOf(b.kind));
    const byKind = (k: ServerKind) => servers.find((s) => s.kind === k)!;

    step(`checking up to ${CHECKED_PER_CLASS} bodies per class on ours`);
    const checks: Record<string, CheckResult> = {};
    for (const cls of o.classes) {
      const c = await checkBodies(byKind('ours').url, keys[0], recorded[cls], CHECKED_PER_CLASS);
      checks[cls] = c;
      const problems = c.non2xx + (cls === 'typo' || cls === 'place_typo' ? 0 : c.empty);
      step(
        `  ${cls}: ${c.checked} checked, ${c.non2xx} non-2xx, ${c.empty} empty, ${c.mismatched} differ from the recording${problems ? '  <-- PROBLEM' : ''}`,
      );
    }

    sampler = new RssSampler(byKind('ours').child.pid!);
    sampler.start();
    const bodiesOf = (cls: QueryClass) => recorded[cls].map((r) => r.body);
    // Ours only: the ceiling's few lines are compiled after a handful of requests, and a warm JIT
    // changes nothing for the naive peer's table scans. The recording already warmed the database.
    step(`warm-up: ${WARMUP_S} s of ours, every class mixed`);
    await runLoad(byKind('ours').url, o.classes.flatMap(bodiesOf), keys, o.connections[0], WARMUP_S);
    await waitIdle(o.databaseUrl);

    // Class by class, the servers in turn: drifting background load hits all three alike. A run that
    // fails is a row marked failed (bench-cells.ts), and the bench goes on.
    const cells: Cell[] = [];
    for (const cls of o.classes) {
      for (const n of o.connections) {
        for (const [i, server] of servers.entries()) {
          if (!o.measured.includes(server.kind)) continue;
          const restart = () => startServer(server.kind, serverOptions);
          const run = (s: RunningServer) =>
            runLoad(s.url, bodiesOf(cls), s.kind === 'ours' ? keys : [], n, o.duration, s.child.pid);
          const { server: s, result: r, notes } = await measureCell(server, restart, run);
          servers[i] = s;
          if (s.kind === 'ours') sampler.follow(s.child.pid!);
          for (const note of notes) step(`  ${note}`);
          cells.push({ cls, connections: n, server: s.kind, ...r });
          step(
            `${cls.padEnd(11)} @${String(n).padEnd(3)} ${s.kind.padEnd(7)} ${r.rps.toFixed(1).padStart(8)} req/s  p50 ${r.p50} p95 ${r.p95} p99 ${r.p99} ms  errors ${r.errors} (timeouts ${r.timeouts}) non-2xx ${r.non2xx}${r.failure ? `  FAILED: ${r.failure}` : ''}`,
          );
          // A slow server may still work through a queue: the next run starts on a quiet database.
          const notIdle = await waitIdle(o.databaseUrl);
          if (notIdle) step(`  ${notIdle}`);
        }
      }
    }
    const oursRss = sampler.stop();

    // A class's tail is its slowest bodies: the plans of the slowest one at one connection go beside
    // the first body's, so a missed latency target comes with the EXPLAIN that shows why.
    step("EXPLAIN (ANALYZE, BUFFERS) of each class's slowest body at one connection");
    for (const cls of o.classes) {
      const slowest = cells.find((c) => c.cls === cls && c.connections === 1 && c.server === 'ours')?.slowest?.[0];
      if (!slowest || slowest.body === 0) continue;
      const r = recorded[cls][slowest.body];
      const plan = await explain(o.databaseUrl, r.statements).catch((e: Error) => `-- EXPLAIN failed: ${e.message}\n`);
      explains[cls] +=
        `\n-- the slowest body at one connection (${slowest.requests} requests, p50 ${slowest.p50} ms, max ${slowest.max} ms): ${r.body}\n\n` +
        plan;
    }

    const report: BenchReport = {
      startedAt,
      finishedAt: new Date().toISOString(),
      options: {
        records: o.records,
        seed: o.seed,
        dataset: o.dataset,
        duration: o.duration,
        connections: o.connections,
        poolSize: o.poolSize,
        bodiesPerClass: o.bodies,
        oursLogLevel: o.logLevel ?? 'default (info)',
      },
      environment: env,
      loadAverageBefore,
      loadAverageAfter: loadAverage(),
      dataset,
      bodies: Object.fromEntries(o.classes.map((c) => [c, recorded[c].length])),
      bodyTexts: Object.fromEntries(o.classes.map((c) => [c, recorded[c].map((r) => r.body)])),
      checks,
      oursRss,
      cells,
      targets: evaluateTargets(cells, o.connections, oursRss.peakRssMb, o.records, dataset.importRate, o.dataset),
    };
    writeReport(o.out, report, explains);
    console.log(`\n${consoleTable(cells)}\n`);
    console.log(targetLines(report.targets).join('\n'));
    console.log(
      `\nours peak RSS ${oursRss.peakRssMb} MB; load average before ${loadAverageBefore.join(' / ')}, after ${report.loadAverageAfter.join(' / ')}`,
    );
    step(`report in ${o.out} (results.md, results.json, chart.svg, explain/)`);
    return report;
  } finally {
    sampler?.stop();
    await Promise.all(servers.map((s) => s.stop()));
    rmSync(work, { recursive: true, force: true });
  }
}

if (require.main === module) {
  main(process.argv.slice(2)).catch((error) => {
    console.error(error instanceof Error ? error.message : error);
    if (process.env.BENCH_DEBUG) console.error(error);
    process.exitCode = 1;
  });
}
