import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { Client } from 'pg';
import { generateApiKey } from '../../src/api-key/api-key-secret';

// The real built server (npm run build -> node dist/src/main.js) in its own process, as in production.
const ROOT = join(__dirname, '..', '..');
const MAIN = join(ROOT, 'dist', 'src', 'main.js');

interface Server {
  child: ChildProcess;
  url: string;
  output: () => string;
  exited: Promise<number | null>;
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

async function spawnServer(env: Record<string, string>): Promise<Server> {
  const port = await freePort();
  const child = spawn(process.execPath, [MAIN], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, DATABASE_URL: process.env.DATABASE_URL, HOST: '127.0.0.1', PORT: String(port), LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, url: `http://127.0.0.1:${port}`, output: () => output, exited };
}

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

const ready = (server: Server) =>
  until('readiness', async () => ((await fetch(`${server.url}/health/ready`)).status === 200 ? true : undefined));

async function lockImagery(): Promise<Client> {
  const client = new Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  await client.query('BEGIN');
  await client.query('LOCK TABLE imagery IN ACCESS EXCLUSIVE MODE');
  return client;
}

// The server's search is running and blocked on our lock: truly in flight.
const searchBlocked = (lock: Client) =>
  until('the search to wait on the lock', async () => {
    const { rows } = await lock.query(
      "SELECT 1 FROM pg_stat_activity WHERE application_name = 'location-imagery-search' AND wait_event_type = 'Lock'",
    );
    return rows.length > 0 ? true : undefined;
  });

describe('the built server', () => {
  const key = generateApiKey();
  const running: Server[] = [];

  beforeAll(() => {
    execFileSync(process.execPath, [join(ROOT, 'node_modules', '@nestjs', 'cli', 'bin', 'nest.js'), 'build'], { cwd: ROOT, stdio: 'pipe' });
  }, 120_000);

  afterEach(() => {
    for (const s of running.splice(0)) if (s.child.exitCode === null) s.child.kill('SIGKILL');
  });

  it('exits 1 on an invalid setting, naming the variable and the rule, without a stack trace', async () => {
    const server = await spawnServer({ SHUTDOWN_TIMEOUT_MS: 'soon' });
    running.push(server);
    expect(await server.exited).toBe(1);
    expect(server.output()).toContain('SHUTDOWN_TIMEOUT_MS must be an integer between 0 and 600000');
    expect(server.output()).not.toMatch(/\n\s+at /);
  });

  it('on SIGTERM stops accepting, finishes the in-flight request, closes the pool and exits 0', async () => {
    const server = await spawnServer({ BOOTSTRAP_API_KEY: key, DB_STATEMENT_TIMEOUT_MS: '60000', SHUTDOWN_TIMEOUT_MS: '20000' });
    running.push(server);
    await ready(server);
    const lock = await lockImagery();
    try {
      let settled = false;
      const search = fetch(`${server.url}/search`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': key },
        body: JSON.stringify({ query: 'Vaduz' }),
      }).finally(() => (settled = true));
      await searchBlocked(lock);

      server.child.kill('SIGTERM');
      // New connections are refused at once...
      await until('new connections to be refused', async () => {
        try {
          await fetch(`${server.url}/health/live`);
          return undefined;
        } catch {
          return true;
        }
      }, 5000);
      // ...while the in-flight request is still being served.
      await new Promise((r) => setTimeout(r, 300));
      expect(settled).toBe(false);
      expect(server.child.exitCode).toBeNull();

      await lock.query('COMMIT');
      const res = await search;
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ isSuccess: true, region: 'global' });
    } finally {
      await lock.end();
    }
    expect(await server.exited).toBe(0);
    expect(server.output()).toContain('SIGTERM received');
    expect(server.output()).toContain('Shut down cleanly');
  });

  it('bounds the drain by SHUTDOWN_TIMEOUT_MS, then exits 0 anyway', async () => {
    const server = await spawnServer({ BOOTSTRAP_API_KEY: key, DB_STATEMENT_TIMEOUT_MS: '60000', SHUTDOWN_TIMEOUT_MS: '300' });
    running.push(server);
    await ready(server);
    const lock = await lockImagery();
    try {
      const search = fetch(`${server.url}/search`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': key },
        body: JSON.stringify({ query: 'Vaduz' }),
      }).then(
        (r) => r.status,
        () => 'cut off',
      );
      await searchBlocked(lock);
      const started = Date.now();
      server.child.kill('SIGTERM');
      expect(await server.exited).toBe(0);
      // 300 ms drain plus at most the 2 s allowed for closing the pool, with slack for a busy machine.
      expect(Date.now() - started).toBeLessThan(6000);
      expect(await search).toBe('cut off');
      expect(server.output()).toContain('Requests still running after 300 ms');
    } finally {
      await lock.query('ROLLBACK').catch(() => undefined);
      await lock.end();
    }
  });
});
