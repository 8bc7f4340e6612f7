// Starting the three servers and driving them with autocannon, one query class at a time.
import { ChildProcess, spawn } from 'node:child_process';
import { createWriteStream, readFileSync } from 'node:fs';
import { AddressInfo, createServer } from 'node:net';
import { join, resolve } from 'node:path';
import autocannon from 'autocannon';
import { RATE_LIMIT_MAX } from '../../src/config/app-config';
import type { ServerKind } from './bench-servers';
import { percentile, slowestBodies, type BodyLatency } from './bench-latency';

const ROOT = resolve(__dirname, '..', '..');
export const REQUEST_TIMEOUT_S = 10;

export interface RunningServer {
  kind: ServerKind;
  url: string;
  child: ChildProcess;
  /** Throws when the server has exited (a crash, or someone else's kill). */
  assertRunning(): void;
  stop(): Promise<void>;
}

export interface ServerOptions {
  databaseUrl: string;
  poolSize: number;
  statementTimeoutMs: number;
  apiKey: string;
  statementsFile: string;
  logFile: string;
  /** LOG_LEVEL for ours; undefined keeps the shipped default. */
  logLevel?: string;
  /** More settings for ours (TRUST_PROXY, say). */
  env?: Record<string, string>;
}

function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as AddressInfo;
      s.close(() => resolvePort(port));
    });
    s.on('error', reject);
  });
}

export async function startServer(kind: ServerKind, o: ServerOptions): Promise<RunningServer> {
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: o.databaseUrl,
    PORT: String(port),
    DB_POOL_SIZE: String(o.poolSize),
    DB_STATEMENT_TIMEOUT_MS: String(o.statementTimeoutMs),
  };
  let args: string[];
  if (kind === 'ours') {
    // --title renames the process (its command line too): a `pkill -f dist/src/main.js` meant for a
    // developer's own server elsewhere on the machine does not stop the bench's.
    // The heap bound `npm start` and the Dockerfile pass (docs/operations.md#memory).
    args = ['--title=lis-bench-ours', '--max-old-space-size=1024', join(ROOT, 'dist', 'src', 'main.js')];
    Object.assign(env, {
      HOST: '127.0.0.1',
      BOOTSTRAP_API_KEY: o.apiKey,
      RATE_LIMIT_PER_MINUTE: String(RATE_LIMIT_MAX),
      REDIS_URL: '',
      NODE_ENV: 'production',
    });
    if (o.logLevel) env.LOG_LEVEL = o.logLevel;
    else delete env.LOG_LEVEL;
    Object.assign(env, o.env);
  } else {
    args = [
      `--title=lis-bench-${kind}`,
      '-r',
      'ts-node/register/transpile-only',
      join(__dirname, 'bench-servers.ts'),
      kind,
    ];
    env.BENCH_STATEMENTS = o.statementsFile;
  }
  const child = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  // However the bench ends (a crash included), its servers end with it.
  process.once('exit', () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  const log = createWriteStream(o.logFile, { flags: 'a' });
  child.stdout!.pipe(log);
  child.stderr!.pipe(log);
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${kind} server exited with ${child.exitCode}; see ${o.logFile}`);
    try {
      await fetch(kind === 'ours' ? `${url}/health/ready` : url, {
        method: kind === 'ours' ? 'GET' : 'POST',
        body: kind === 'ours' ? undefined : '{}',
      });
      break;
    } catch {
      if (Date.now() > deadline) throw new Error(`${kind} server did not answer within 60 s; see ${o.logFile}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  return {
    kind,
    url,
    child,
    assertRunning: () => {
      if (child.exitCode !== null || child.signalCode !== null) {
        throw new Error(
          `${kind} server exited during the run (${child.signalCode ?? `code ${child.exitCode}`}); see ${o.logFile}`,
        );
      }
    },
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

// CPU time (user + system) a process has used so far, in ms (/proc/<pid>/stat counts clock ticks,
// 100 a second on Linux); null when it cannot be read.
export function processCpuMs(pid: number | undefined): number | null {
  if (pid === undefined) return null;
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return null;
  }
}

// Peak resident set of a process while it runs: VmRSS sampled, VmHWM (the kernel's own peak) at the end.
export class RssSampler {
  peakRssKb = 0;
  private timer?: NodeJS.Timeout;
  constructor(private pid: number) {}
  /** The server was started again: its peak counts too. */
  follow(pid: number): void {
    this.pid = pid;
  }
  private read(field: 'VmRSS' | 'VmHWM'): number {
    try {
      const m = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${this.pid}/status`, 'utf8'));
      return m ? Number(m[1]) : 0;
    } catch {
      return 0;
    }
  }
  start(): void {
    this.timer = setInterval(() => (this.peakRssKb = Math.max(this.peakRssKb, this.read('VmRSS'))), 250);
  }
  stop(): { peakRssMb: number; hwmMb: number } {
    clearInterval(this.timer);
    return {
      peakRssMb: Math.round(Math.max(this.peakRssKb, this.read('VmRSS')) / 1024),
      hwmMb: Math.round(this.read('VmHWM') / 1024),
    };
  }
}

// Bodies listed per run at one connection.
const SLOWEST_KEPT = 5;

export interface LoadResult {
  /** Set when the run failed (see bench-cells.ts): the figures are then zero or partial. */
  failure?: string;
  /**
   * At one connection only (requests then go one at a time, so each response is known to answer the
   * body sent last): the slowest bodies; empty when a request failed (the pairing is then unsure).
   */
  slowest?: BodyLatency[];
  /** The server process's CPU time (user + system) per 2xx response, in microseconds; null if unknown. */
  serverCpuUs: number | null;
  requests: number;
  ok: number;
  rps: number;
  p50: number;
  p95: number;
  p99: number;
  errors: number;
  timeouts: number;
  non2xx: number;
  seconds: number;
}

// `connections` connections for `duration` seconds, bodies rotated across requests (and our keys
// across requests, so no key nears its limit). Latency percentiles are over 2xx responses; the
// server's CPU per response is read from serverPid's counters around the run.
export async function runLoad(
  url: string,
  bodies: string[],
  keys: string[],
  connections: number,
  duration: number,
  serverPid?: number,
): Promise<LoadResult> {
  const cpuBefore = processCpuMs(serverPid);
  let next = 0;
  const latencies: number[] = [];
  // One connection: the bodies sent and not yet answered, in order, and each body's latencies.
  const sent: number[] = [];
  const byBody = new Map<number, number[]>();
  let unpaired = false;
  let done!: (r: autocannon.Result) => void;
  let failed!: (e: Error) => void;
  const finishedRun = new Promise<autocannon.Result>((res, rej) => {
    done = res;
    failed = rej;
  });
  const instance = autocannon(
    {
      url: `${url}/search`,
      connections,
      duration,
      timeout: REQUEST_TIMEOUT_S,
      requests: [
        {
          method: 'POST',
          setupRequest: (req) => {
            const i = next++;
            if (connections === 1) sent.push(i % bodies.length);
            const headers: Record<string, string> = { 'content-type': 'application/json' };
            if (keys.length > 0) headers['x-api-key'] = keys[i % keys.length];
            return { ...req, method: 'POST', path: '/search', headers, body: bodies[i % bodies.length] };
          },
        },
      ],
    },
    (error, result) => (error ? failed(error) : done(result)),
  );
  instance.on('response', (_client: unknown, status: number, _bytes: number, time: number) => {
    const body = sent.shift();
    if (status < 200 || status >= 300) return;
    latencies.push(time);
    if (body === undefined) return;
    const times = byBody.get(body);
    if (times) times.push(time);
    else byBody.set(body, [time]);
  });
  instance.on('reqError', () => {
    sent.shift();
    unpaired = true;
  });
  const result = await finishedRun;
  const cpuAfter = processCpuMs(serverPid);
  const sorted = Float64Array.from(latencies).sort();
  const seconds = result.duration;
  const r2 = (n: number) => Math.round(n * 100) / 100;
  const cpuUs =
    cpuBefore !== null && cpuAfter !== null && sorted.length > 0
      ? ((cpuAfter - cpuBefore) * 1000) / sorted.length
      : null;
  return {
    ...(connections === 1 ? { slowest: unpaired || result.errors > 0 ? [] : slowestBodies(byBody, SLOWEST_KEPT) } : {}),
    serverCpuUs: cpuUs === null ? null : Math.round(cpuUs),
    requests: result.requests.total,
    ok: sorted.length,
    rps: Math.round((sorted.length / seconds) * 10) / 10,
    p50: r2(percentile(sorted, 50)),
    p95: r2(percentile(sorted, 95)),
    p99: r2(percentile(sorted, 99)),
    errors: result.errors,
    timeouts: result.timeouts,
    non2xx: result.non2xx,
    seconds: r2(seconds),
  };
}

export interface CheckResult {
  checked: number;
  non2xx: number;
  empty: number;
  mismatched: number;
}

// One request per body (up to `max`) to our server: status 200, and as many results as the service
// gave when its statements were recorded.
export async function checkBodies(
  url: string,
  key: string,
  recorded: { body: string; results: number }[],
  max: number,
): Promise<CheckResult> {
  const out: CheckResult = { checked: 0, non2xx: 0, empty: 0, mismatched: 0 };
  for (const r of recorded.slice(0, max)) {
    const res = await fetch(`${url}/search`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': key },
      body: r.body,
    });
    out.checked++;
    if (res.status !== 200) {
      out.non2xx++;
      continue;
    }
    const json = (await res.json()) as { data: unknown[] };
    if (json.data.length === 0) out.empty++;
    if (json.data.length !== r.results) out.mismatched++;
  }
  return out;
}
