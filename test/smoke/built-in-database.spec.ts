import { ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createServer, AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';

// `npm start` with no DATABASE_URL: the built server on the built-in database, as a new user runs it.
const MAIN = resolve(__dirname, '..', '..', 'dist', 'src', 'main.js');

interface Started {
  child: ChildProcess;
  base: string;
  key: string;
  output: () => string;
  seconds: number;
}

function freePort(): Promise<number> {
  return new Promise((resolvePromise) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolvePromise(port));
    });
  });
}

async function start(dataDir: string): Promise<Started> {
  const port = String(await freePort());
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, PORT: port, LOG_LEVEL: 'info', BOOTSTRAP_API_KEY: '' };
  delete env.DATABASE_URL;
  const began = Date.now();
  const child = spawn(process.execPath, [MAIN], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  return new Promise((resolvePromise, reject) => {
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      const base = /Listening on (http:\/\/localhost:\d+)/.exec(out)?.[1];
      const key = /API key: (\S+)/.exec(out)?.[1];
      if (base && key && out.includes("-d '{")) {
        resolvePromise({ child, base, key, output: () => out, seconds: (Date.now() - began) / 1000 });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.on('exit', (code) => reject(new Error(`server exited with ${code} before it was ready:\n${out}`)));
  });
}

function stop(child: ChildProcess, signal: NodeJS.Signals): Promise<number | null> {
  return new Promise((resolvePromise) => {
    child.removeAllListeners('exit');
    child.on('exit', (code) => resolvePromise(code));
    child.kill(signal);
  });
}

async function search(s: Started, body: object) {
  const res = await fetch(`${s.base}/search`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': s.key },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as any };
}

describe('npm start without DATABASE_URL (built-in database)', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'lis-smoke-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('creates, seeds and serves on first start, refuses a second process, and keeps data across restarts', async () => {
    const first = await start(dataDir);
    console.log(`first start ready in ${first.seconds.toFixed(1)} s`);
    expect(first.output()).toMatch(/Demo dataset loaded: 66,878 records/);

    const res = await search(first, { query: 'Beverly Hills', limit: 2 });
    expect(res.status).toBe(200);
    expect(res.body.data[0].address).toMatch(/^Beverly Hills/);
    expect(res.body.data[0].image).toBe(`${first.base}/demo-images/${res.body.data[0].id}.svg`);

    // The web page is served, and pre-filled with the printed demo key.
    const page = await fetch(`${first.base}/`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<script type="module" src="/assets/app.js">');
    expect(await (await fetch(`${first.base}/config.json`)).json()).toEqual({ demoKey: first.key });

    // The same data directory cannot be opened twice.
    const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, PORT: '0' };
    delete env.DATABASE_URL;
    const second = spawn(process.execPath, [MAIN], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let secondOut = '';
    second.stderr!.on('data', (c: Buffer) => (secondOut += c.toString()));
    const secondCode = await new Promise((r) => second.on('exit', r));
    expect(secondCode).toBe(1);
    expect(secondOut).toMatch(/already open in another process/);

    // Many concurrent searches all answered, and answered the same as one at a time.
    const queries = Array.from({ length: 50 }, (_, i) => ['San', 'New', 'Spring', 'Lake', 'Paris'][i % 5]);
    const alone = await search(first, { query: 'Spring', limit: 5 });
    const together = await Promise.all(queries.map((q) => search(first, { query: q, limit: 5 })));
    const failed = together.filter((r) => r.status !== 200 || r.body.data.length !== 5);
    expect(failed.map((r) => JSON.stringify(r.body).slice(0, 200))).toEqual([]);
    expect(together[2].body).toEqual(alone.body);

    expect(await stop(first.child, 'SIGTERM')).toBe(0);

    const again = await start(dataDir);
    console.log(`second start ready in ${again.seconds.toFixed(1)} s`);
    expect(again.key).toBe(first.key);
    expect(again.output()).not.toMatch(/Loading the demo dataset/);
    const after = await search(again, { query: 'Beverly Hills', limit: 2 });
    expect(after.body.pageTotal).toBe(res.body.pageTotal);
    expect(after.body.data.map((r: { id: string }) => r.id)).toEqual(res.body.data.map((r: { id: string }) => r.id));
    expect(await stop(again.child, 'SIGINT')).toBe(0);
  }, 300_000);
});
