import { ChildProcess, spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { freePort, ROOT, until } from './processes';

// The built server (`npm run test:e2e` and `npm test` build it first) in a process of its own, as in
// production: what ends it (an unhandled 'error' event, say) ends only it, and the test sees that.
const MAIN = resolve(ROOT, 'dist', 'src', 'main.js');

export interface ServiceProcess {
  child: ChildProcess;
  base: string;
  output: () => string;
  /** The exit code or signal once the process has ended, else undefined. */
  ended: () => string | undefined;
  stop: () => Promise<void>;
}

export async function startServiceProcess(env: Record<string, string>): Promise<ServiceProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, [MAIN], {
    env: { PATH: process.env.PATH, HOST: '127.0.0.1', PORT: String(port), LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  let ended: string | undefined;
  const exited = new Promise<void>((r) =>
    child.once('exit', (code, signal) => {
      ended = `exit code ${code}, signal ${signal}`;
      r();
    }),
  );
  const base = `http://127.0.0.1:${port}`;
  // Ready when it answers; a process that ended on the way says why at once.
  await until(
    'the server to answer',
    async () => ended !== undefined || (await fetch(`${base}/health/live`)).ok,
    120_000,
  );
  if (ended) throw new Error(`the server ended (${ended}):\n${output}`);
  return {
    child,
    base,
    output: () => output,
    ended: () => ended,
    stop: async () => {
      if (!ended) child.kill('SIGTERM');
      await exited;
    },
  };
}
