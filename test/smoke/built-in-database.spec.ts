import { ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { networkInterfaces, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { cpuSeconds, freePort, loadFactor, machineLoad, npm, portOpen, until } from '../helpers/processes';

// `npm start` with no DATABASE_URL: the built server on the built-in database, as a new user runs it.
const ROOT = resolve(__dirname, '..', '..');
const MAIN = resolve(ROOT, 'dist', 'src', 'main.js');
// A restart of a current build on an idle machine (stretched by the load per core on a busy one):
// 3.2-4.2 s measured. The test fails only past twice that goal: opening PGlite with PostGIS is most
// of it and took 5.4 s (7.0 s of CPU) while CI built a Docker image beside it, which the one-minute
// load average did not show; a restart that rebuilds or reloads data takes 40 s and more.
const RESTART_GOAL_S = 5;
const RESTART_FAILS_AT_S = 2 * RESTART_GOAL_S;
// A first start from the template is a copy (~290 MB) and a restart: the goal is 30 s on a quiet machine
// (issue 32); it fails only past twice that, stretched by the load as above.
const FIRST_START_GOAL_S = 30;
const FIRST_START_FAILS_AT_S = 2 * FIRST_START_GOAL_S;
const template = mkdtempSync(join(tmpdir(), 'lis-smoke-template-'));
// A CLI with no server beside it opens the built-in database itself (docs/operations.md#memory). Issue 32
// asks for under 300 MB, a CLI that reads geometries (PostGIS loaded) included; each is run with the node
// options its npm script gives it, as `npm run <cli>` runs it.
const CLI_PEAK_GOAL_MB = 300;

interface Started {
  child: ChildProcess;
  port: number;
  base: string;
  key: string;
  output: () => string;
  seconds: number;
  cpu: number;
}

async function start(dataDir: string): Promise<Started> {
  const port = await freePort();
  const began = Date.now();
  const run = npm(['start'], {
    DATA_DIR: dataDir,
    PORT: String(port),
    LOG_LEVEL: 'info',
    BOOTSTRAP_API_KEY: '',
    DATABASE_URL: undefined,
    BUILT_IN_TEMPLATE: template,
  });
  return new Promise((resolvePromise, reject) => {
    const onData = () => {
      const out = run.output();
      const base = /Listening on (http:\/\/localhost:\d+)/.exec(out)?.[1];
      const key = /API key: (\S+)/.exec(out)?.[1];
      if (base && key && out.includes("-d '{")) {
        run.child.stdout!.off('data', onData);
        const seconds = (Date.now() - began) / 1000;
        resolvePromise({
          child: run.child,
          port,
          base,
          key,
          output: run.output,
          seconds,
          cpu: cpuSeconds(run.child.pid!),
        });
      }
    };
    run.child.stdout!.on('data', onData);
    run.child.on('exit', (code) =>
      reject(new Error(`npm start exited with ${code} before it was ready:\n${run.output()}`)),
    );
  });
}

// The signal goes to the process `npm start` started; it must reach the server, which frees its port.
async function stop(s: Started, signal: NodeJS.Signals): Promise<number | null> {
  s.child.removeAllListeners('exit');
  const exited = new Promise<number | null>((r) => s.child.on('exit', (code) => r(code)));
  s.child.kill(signal);
  await until(`the port to be free after ${signal}`, async () => !(await portOpen(s.port)), 10_000);
  return exited;
}

// The node options of a CLI's npm script (`exec node <options> dist/src/cli/<script>.cli.js`).
function scriptNodeOptions(script: string): string[] {
  const scripts = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> })
    .scripts;
  const line = scripts[script] ?? '';
  const options = new RegExp(`exec node ((?:--\\S+ )*)dist/src/cli/${script}\\.cli\\.js`).exec(line);
  if (!options) throw new Error(`package.json's "${script}" script does not run dist/src/cli/${script}.cli.js`);
  return options[1].split(' ').filter(Boolean);
}

// A CLI on the stopped server's data directory: its exit code, standard output and peak memory.
async function cli(dataDir: string, script: string, args: string[]) {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, BUILT_IN_TEMPLATE: template };
  delete env.DATABASE_URL;
  const preload = resolve(ROOT, 'test', 'helpers', 'peak-memory.cjs');
  const entry = resolve(ROOT, 'dist', 'src', 'cli', `${script}.cli.js`);
  const child = spawn(process.execPath, [...scriptNodeOptions(script), '--require', preload, entry, ...args], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
  const code = await new Promise<number | null>((r) => child.on('exit', r));
  const peakMb = Number(/peak-rss-mb (\d+)/.exec(stderr)?.[1]);
  console.log(`${script} ${args.join(' ')} on the built-in database: peak ${peakMb} MB; ${machineLoad()}`);
  return { code, stdout, stderr, peakMb };
}

async function search(s: Started, body: object) {
  const res = await fetch(`${s.base}/search`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': s.key },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as any };
}

// `npm run built-in:template` into the given directory, noting when each progress line arrived.
async function makeTemplate(dir: string) {
  const began = Date.now();
  const env: NodeJS.ProcessEnv = { ...process.env, BUILT_IN_TEMPLATE: dir };
  delete env.DATABASE_URL;
  for (const name of Object.keys(env)) if (name.startsWith('npm_')) delete env[name];
  const child = spawn('npm', ['run', '--silent', 'built-in:template'], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const progressArrivals: number[] = [];
  const onData = (chunk: Buffer) => {
    for (const line of chunk.toString().split('\n'))
      if (/places loaded$|records loaded$|Demo dataset loaded/.test(logMessage(line)))
        progressArrivals.push(Date.now());
    output += chunk.toString();
  };
  child.stdout!.on('data', onData);
  child.stderr!.on('data', onData);
  const code = await new Promise<number | null>((r) => child.on('exit', r));
  return { code, output, progressArrivals, seconds: (Date.now() - began) / 1000 };
}

// A line's message: the CLIs write JSON lines (pino) when their output is not a terminal.
function logMessage(line: string): string {
  try {
    const entry = JSON.parse(line) as { msg?: unknown };
    return typeof entry.msg === 'string' ? entry.msg.trim() : line.trim();
  } catch {
    return line.trim();
  }
}

function megabytesUnder(dir: string): number {
  const files = readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile());
  return files.reduce((sum, e) => sum + statSync(join(e.parentPath, e.name)).size, 0) / 1e6;
}

describe('npm start without DATABASE_URL (built-in database)', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'lis-smoke-'));
  afterAll(() => {
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(template, { recursive: true, force: true });
  });

  it('makes the first start a copy of the database `npm install` made, refuses a second process, and keeps data across restarts', async () => {
    // What `npm install` runs (postinstall): the whole first load, into a template of this test's own.
    const made = await makeTemplate(template);
    console.log(`npm run built-in:template: made in ${made.seconds.toFixed(1)} s wall; ${machineLoad()}`);
    expect(made.code).toBe(0);
    expect(made.output).toMatch(/World gazetteer loaded: \d{2},\d{3} places/);
    expect(made.output).toMatch(/Demo dataset loaded: 66,229 records/);
    expect(made.output).toMatch(/Demo records linked to their places as they were loaded/);
    expect(made.output).toMatch(/Built-in database template made in/);
    // The loading progress is written as it happens: each line arrives later than the one before.
    expect(made.progressArrivals.length).toBeGreaterThanOrEqual(7);
    expect(made.progressArrivals.every((t, i) => i === 0 || t > made.progressArrivals[i - 1])).toBe(true);
    // Spare WAL segments are not part of it (an unpruned first load leaves ~560 MB of them).
    expect(megabytesUnder(join(template, 'pgdata', 'pg_wal'))).toBeLessThan(100);
    // Current: a second run finds it so and makes nothing.
    const current = await makeTemplate(template);
    expect(current.output).toMatch(/template is current/);

    const first = await start(dataDir);
    console.log(
      `npm start (built-in database), first start from the template: ready in ${first.seconds.toFixed(1)} s wall, ${first.cpu.toFixed(1)} s CPU; ${machineLoad()}`,
    );
    expect(first.output()).toMatch(/a copy of the one `npm install` made/);
    expect(first.output()).not.toMatch(/Loading the demo dataset|Loading the world gazetteer/);
    expect(first.seconds).toBeLessThan(FIRST_START_FAILS_AT_S * loadFactor());

    // One log format from the first line on (npm's own "> script" lines aside).
    const logLines = first
      .output()
      .split('\nAPI key:')[0]
      .split('\n')
      .filter((l) => l.trim() && !/^(> |npm )/.test(l));
    const entries = logLines.map((line) => {
      try {
        return JSON.parse(line) as { time: string; msg: string };
      } catch {
        throw new Error(`not a JSON log line: ${line}`);
      }
    });
    expect(entries[0].msg).toMatch(/^Starting the built-in database/);

    // HOST unset: the server answers this machine only, so its demo key does not reach the network.
    // Asked on the machine's own outside address (where it has one), which a server on 0.0.0.0 answers.
    expect(first.output()).toMatch(/this machine only, HOST=0\.0\.0\.0 exposes it/);
    const outside = Object.values(networkInterfaces())
      .flat()
      .find((a) => a?.family === 'IPv4' && !a.internal);
    if (outside) {
      const reached = await fetch(`http://${outside.address}:${first.port}/config.json`).then(
        (r) => r.status,
        () => 'refused',
      );
      expect({ outside: outside.address, reached }).toEqual({ outside: outside.address, reached: 'refused' });
    }

    const res = await search(first, { query: 'Beverly Hills', limit: 2 });
    expect(res.status).toBe(200);
    expect(res.body.data[0].address).toMatch(/^Beverly Hills/);
    expect(res.body.data[0].image).toBe(`${first.base}/demo-images/${res.body.data[0].id}.svg`);
    // Linked to their places on first start: a region keeps to it and is named.
    const illinois = await search(first, { query: 'Springfield', region: 'US-IL', limit: 5 });
    expect({ status: illinois.status, region: illinois.body.region, region_id: illinois.body.region_id }).toEqual({
      status: 200,
      region: 'Illinois',
      region_id: 'US-IL',
    });
    expect(illinois.body.data.length).toBeGreaterThan(0);
    for (const d of illinois.body.data) expect(d.address).toMatch(/^Springfield, (IL|Illinois)\b/);

    // The web page is served, and pre-filled with the printed demo key.
    const page = await fetch(`${first.base}/`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<script type="module" src="/assets/app.js">');
    expect(await (await fetch(`${first.base}/config.json`)).json()).toEqual({ demoKey: first.key, mapStyleUrl: null });

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

    expect(await stop(first, 'SIGTERM')).toBe(0);

    const again = await start(dataDir);
    console.log(
      `npm start (built-in database), restart: ready in ${again.seconds.toFixed(1)} s wall, ${again.cpu.toFixed(1)} s CPU; ${machineLoad()}`,
    );
    expect(again.key).toBe(first.key);
    expect(again.output()).not.toMatch(/Loading the demo dataset|Loading the world gazetteer|Building/);
    expect(again.seconds).toBeLessThan(RESTART_FAILS_AT_S * loadFactor());
    const after = await search(again, { query: 'Beverly Hills', limit: 2 });
    expect(after.body.pageTotal).toBe(res.body.pageTotal);
    expect(after.body.data.map((r: { id: string }) => r.id)).toEqual(res.body.data.map((r: { id: string }) => r.id));
    expect(await stop(again, 'SIGINT')).toBe(0);

    // CLIs with no server running: one that never reads a geometry, and one that does (PostGIS compiled then).
    const keys = await cli(dataDir, 'keys', ['list']);
    expect({ code: keys.code, lists: keys.stdout.includes(again.key.slice(0, 12)) }).toEqual({ code: 0, lists: true });
    expect(keys.peakMb).toBeLessThan(CLI_PEAK_GOAL_MB);
    const exported = await cli(dataDir, 'export', ['-', '--format', 'ndjson', '--query', 'Beverly Hills']);
    const records = exported.stdout
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { id: string; geometry: { coordinates: number[] } });
    expect(exported.code).toBe(0);
    const top = after.body.data[0] as { id: string; geometry: { coordinates: number[] } };
    expect(records.find((r) => r.id === top.id)?.geometry).toEqual(top.geometry);
    // Judged by the lower peak of two runs, as the first runs below: one run's peak moves with when V8 collects.
    const exportedAgain = await cli(dataDir, 'export', ['-', '--format', 'ndjson', '--query', 'Beverly Hills']);
    expect(exportedAgain.stdout).toBe(exported.stdout);
    expect(Math.min(exported.peakMb, exportedAgain.peakMb)).toBeLessThan(CLI_PEAK_GOAL_MB);

    // A CLI's first run on a new directory copies the schema `npm install` made, instead of creating a
    // database (PGlite's initdb alone peaked at about 800 MB). Its peak is the lower of two first runs:
    // one run's peak moves with when V8 collects.
    const peaks: number[] = [];
    for (let run = 0; run < 2; run++) {
      const newDir = mkdtempSync(join(tmpdir(), 'lis-smoke-cli-'));
      try {
        const fresh = await cli(newDir, 'keys', ['list']);
        expect({ code: fresh.code, stdout: fresh.stdout.trim() }).toEqual({ code: 0, stdout: 'No API keys.' });
        expect(fresh.stderr).toMatch(/a copy of the one `npm install` made \(.*schema-only-pgdata\)/);
        peaks.push(fresh.peakMb);
      } finally {
        rmSync(newDir, { recursive: true, force: true });
      }
    }
    expect(Math.min(...peaks)).toBeLessThan(CLI_PEAK_GOAL_MB);
  }, 900_000);
});
