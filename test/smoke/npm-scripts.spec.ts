import { execFileSync } from 'node:child_process';
import { generateApiKey } from '../../src/api-key/api-key-hash';
import {
  alive,
  childPids,
  commandLine,
  cpuSeconds,
  freePort,
  loadFactor,
  machineLoad,
  npm,
  portOpen,
  reapedChildrenCpuSeconds,
  ROOT,
  until,
} from '../helpers/processes';

// `npm start` and `npm run keys` as a user types them, on a current build (npm install built it):
// nothing is rebuilt, a restart is ready and a CLI answers within the goals, and a signal sent to the
// process `npm start` started reaches the server. Goals are for an idle machine (restart 5 s, CLI 3 s);
// on a busy one they are stretched by the load per core, and the CPU time (which load does not
// change) is printed beside them. On the PostgreSQL test database; test/smoke/built-in-database.spec.ts
// does the same on the built-in database.
const RESTART_GOAL_S = 5;
const CLI_GOAL_S = 3;
const BUILD_LINE = /Building .* \(sources changed since the last build\)/;

describe('npm scripts on a current build', () => {
  const key = generateApiKey();

  beforeAll(() => {
    // What `npm install` did; a no-op when the build is current (the case being measured below).
    execFileSync(process.execPath, ['scripts/build.mjs', '--if-stale'], { cwd: ROOT, stdio: 'inherit' });
  }, 600_000);

  async function startServer() {
    const port = await freePort();
    const began = Date.now();
    const run = npm(['start'], { PORT: String(port), HOST: '127.0.0.1', BOOTSTRAP_API_KEY: key, LOG_LEVEL: 'info' });
    await until(
      'readiness',
      async () => (await fetch(`http://127.0.0.1:${port}/health/ready`)).status === 200,
      120_000,
    ).catch((e) => {
      run.child.kill('SIGKILL');
      throw new Error(`${e.message}\n${run.output()}`);
    });
    const seconds = (Date.now() - began) / 1000;
    return { run, port, seconds, cpu: cpuSeconds(run.child.pid!) };
  }

  it.each(['SIGTERM', 'SIGINT'] as const)(
    'npm start: ready without building; %s to the npm process stops the server and frees the port',
    async (signal) => {
      const { run, port, seconds, cpu } = await startServer();
      console.log(
        `npm start (PostgreSQL, current build): ready in ${seconds.toFixed(1)} s wall, ${cpu.toFixed(1)} s CPU; ${machineLoad()}`,
      );
      expect(run.output()).not.toMatch(BUILD_LINE);
      expect(seconds).toBeLessThan(RESTART_GOAL_S * loadFactor());

      // The script execs node, so npm's child is the server itself (not a shell that would die alone),
      // with the heap bound of docs/operations.md#memory.
      const [server] = childPids(run.child.pid!);
      expect(commandLine(server)).toMatch(/node --max-old-space-size=1024 .*dist\/src\/main\.js$/);

      const sent = Date.now();
      run.child.kill(signal);
      await until('the port to be free', async () => !(await portOpen(port)), 5000);
      const freedMs = Date.now() - sent;
      expect(await run.exited).toBe(0);
      expect(alive(server)).toBe(false);
      expect(run.output()).toContain(`${signal} received`);
      expect(run.output()).toContain('Shut down cleanly');
      console.log(`${signal} to npm start: port free after ${freedMs} ms`);
    },
    180_000,
  );

  it('npm run keys -- list answers without building', async () => {
    const cpuBefore = reapedChildrenCpuSeconds();
    const began = Date.now();
    const run = npm(['run', 'keys', '--', 'list']);
    const code = await run.exited;
    const seconds = (Date.now() - began) / 1000;
    const cpu = reapedChildrenCpuSeconds() - cpuBefore;
    console.log(
      `npm run keys -- list (PostgreSQL, current build): ${seconds.toFixed(1)} s wall, ${cpu.toFixed(1)} s CPU; ${machineLoad()}`,
    );
    expect({ code, output: run.output() }).toEqual({
      code: 0,
      output: expect.stringMatching(/No API keys\.|\bactive\b/),
    });
    expect(run.output()).not.toMatch(BUILD_LINE);
    expect(seconds).toBeLessThan(CLI_GOAL_S * loadFactor());
  }, 60_000);
});
