import { ChildProcess, spawn } from 'node:child_process';
import { AddressInfo, connect, createServer } from 'node:net';
import { resolve } from 'node:path';
import { generateApiKey } from '../../src/api-key/api-key-hash';

// The built server (npm test builds it first) in its own process, as in production.
const MAIN = resolve(__dirname, '..', '..', 'dist', 'src', 'main.js');

interface Server {
  child: ChildProcess;
  port: number;
  output: () => string;
  exited: Promise<number | null>;
}

function freePort(): Promise<number> {
  return new Promise((resolvePort) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as AddressInfo;
      s.close(() => resolvePort(port));
    });
  });
}

async function spawnServer(env: Record<string, string>): Promise<Server> {
  const port = await freePort();
  const child = spawn(process.execPath, [MAIN], {
    env: {
      PATH: process.env.PATH,
      DATABASE_URL: process.env.DATABASE_URL,
      HOST: '127.0.0.1',
      PORT: String(port),
      LOG_LEVEL: 'info',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  return { child, port, output: () => output, exited };
}

async function until(what: string, probe: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await probe().catch(() => false)) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

const ready = (s: Server) =>
  until('readiness', async () => (await fetch(`http://127.0.0.1:${s.port}/health/ready`)).status === 200);

// A search whose body is held back: `Expect: 100-continue` makes the server confirm it has the
// request (so it is truly in flight) before the body is sent with `finish()`.
function heldSearch(s: Server, key: string) {
  const body = JSON.stringify({ query: 'Vaduz' });
  const socket = connect(s.port, '127.0.0.1');
  let data = '';
  socket.on('data', (d: Buffer) => (data += d.toString()));
  socket.write(
    'POST /search HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n' +
      `x-api-key: ${key}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n`,
  );
  const response = new Promise<{ status: number; body: string } | 'cut off'>((resolveResponse) => {
    socket.on('error', () => undefined);
    socket.on('close', () => {
      const finals = [...data.matchAll(/HTTP\/1\.1 (\d{3})/g)].map((m) => Number(m[1])).filter((c) => c !== 100);
      resolveResponse(
        finals.length ? { status: finals[0], body: data.slice(data.lastIndexOf('\r\n\r\n') + 4) } : 'cut off',
      );
    });
  });
  return {
    accepted: () => until('100 Continue', async () => data.startsWith('HTTP/1.1 100 Continue'), 10_000),
    finish: () => socket.write(body),
    response,
  };
}

describe('the built server', () => {
  const key = generateApiKey();
  const running: Server[] = [];
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

  it('on SIGTERM stops accepting, finishes the in-flight request (database and all), closes the pool, exits 0', async () => {
    const server = await spawnServer({ BOOTSTRAP_API_KEY: key, SHUTDOWN_TIMEOUT_MS: '20000' });
    running.push(server);
    await ready(server);
    const search = heldSearch(server, key);
    await search.accepted();

    server.child.kill('SIGTERM');
    await until(
      'new connections to be refused',
      async () => {
        try {
          await fetch(`http://127.0.0.1:${server.port}/health/live`);
          return false;
        } catch {
          return true;
        }
      },
      5000,
    );
    expect(server.child.exitCode).toBeNull(); // still draining

    search.finish();
    const res = await search.response;
    expect(res).toMatchObject({ status: 200 });
    expect(JSON.parse((res as { body: string }).body)).toMatchObject({ isSuccess: true, region: 'global' });
    expect(await server.exited).toBe(0);
    expect(server.output()).toContain('SIGTERM received');
    expect(server.output()).toContain('Shut down cleanly'); // the app, and with it the pool, closed in time
  });

  it('bounds the drain by SHUTDOWN_TIMEOUT_MS, then exits 0 anyway', async () => {
    const server = await spawnServer({ BOOTSTRAP_API_KEY: key, SHUTDOWN_TIMEOUT_MS: '300' });
    running.push(server);
    await ready(server);
    const search = heldSearch(server, key); // its body never comes
    await search.accepted();
    const started = Date.now();
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    // 300 ms of draining plus at most 2 s for closing the app, with slack for a busy machine.
    expect(Date.now() - started).toBeLessThan(6000);
    expect(await search.response).toBe('cut off');
    expect(server.output()).toContain('Requests still running after 300 ms');
  });
});
