import { ChildProcess, spawn } from 'node:child_process';
import { resolve } from 'node:path';

const ROOT = resolve(__dirname, '..', '..');

export interface Run {
  child: ChildProcess;
  done: Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>;
}

// The real command-line tools (as `npm run import` / `npm run export` run them, minus the build).
export function cli(
  tool: 'import' | 'export' | 'import-places' | 'keys',
  args: string[],
  stdin?: string | Buffer,
  env: NodeJS.ProcessEnv = process.env,
): Run {
  const child = spawn(process.execPath, ['-r', 'ts-node/register/transpile-only', `src/cli/${tool}.cli.ts`, ...args], {
    cwd: ROOT,
    env: { ...env, LOG_LEVEL: 'silent' },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d) => (stdout += d));
  child.stderr!.on('data', (d) => (stderr += d));
  child.stdin!.end(stdin);
  const done = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>(
    (resolve) => child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr })),
  );
  return { child, done };
}

// The counts from the final summary line.
export function counts(stdout: string): Record<string, number> {
  const line = stdout.trim().split('\n').pop() ?? '';
  return Object.fromEntries(
    [...line.matchAll(/(read|inserted|updated|unchanged|deleted|rejected) (\d+)/g)].map((m) => [m[1], Number(m[2])]),
  );
}

export interface LogLine {
  level: string;
  time: string;
  pid: number;
  context?: string;
  msg: string;
}

// A tool's standard error off a terminal: one JSON log line per line (src/logging/cli-logger.ts), in
// the server's shape. Any other line fails the test that reads it.
export function logLines(stderr: string): LogLine[] {
  return stderr
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => {
      let parsed: LogLine;
      try {
        parsed = JSON.parse(line) as LogLine;
      } catch {
        throw new Error(`not a JSON log line: ${line}`);
      }
      if (typeof parsed.level !== 'string' || typeof parsed.msg !== 'string' || typeof parsed.time !== 'string')
        throw new Error(`a JSON line without level, time and msg: ${line}`);
      return parsed;
    });
}
