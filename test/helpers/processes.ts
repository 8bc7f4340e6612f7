import { ChildProcess, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { AddressInfo, connect, createServer } from 'node:net';
import { availableParallelism, loadavg } from 'node:os';
import { resolve } from 'node:path';

// Running the project's npm scripts as a user does, and watching the processes they start (Linux /proc).
export const ROOT = resolve(__dirname, '..', '..');

export function freePort(): Promise<number> {
  return new Promise((resolvePort) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolvePort(port));
    });
  });
}

export interface NpmRun {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

// `npm <args>` in the project, as typed at a shell; env replaces the inherited variables named in it
// (undefined removes one).
export function npm(args: string[], env: Record<string, string | undefined> = {}): NpmRun {
  const merged: NodeJS.ProcessEnv = { ...process.env };
  // Inside `npm test`, npm's own variables would change how the nested npm behaves (e.g. --silent).
  for (const name of Object.keys(merged)) if (name.startsWith('npm_')) delete merged[name];
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) delete merged[name];
    else merged[name] = value;
  }
  const child = spawn('npm', args, { cwd: ROOT, env: merged, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  return { child, output: () => output, exited };
}

export async function until(what: string, probe: () => Promise<boolean> | boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (
      await Promise.resolve()
        .then(probe)
        .catch(() => false)
    )
      return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
}

export function portOpen(port: number): Promise<boolean> {
  return new Promise((resolveOpen) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolveOpen(true);
    });
    socket.once('error', () => resolveOpen(false));
  });
}

function stat(pid: number): string[] | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name, which is in parentheses and may hold spaces.
    return text.slice(text.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined;
  }
}

export function childPids(pid: number): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map(Number)
    .filter((p) => stat(p)?.[1] === String(pid));
}

export function commandLine(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim();
  } catch {
    return '';
  }
}

export function alive(pid: number): boolean {
  const state = stat(pid)?.[0];
  return state !== undefined && state !== 'Z';
}

const TICKS_PER_SECOND = 100; // USER_HZ on Linux

// CPU seconds a process and everything it started have used so far (its own time, the time of the
// children it has reaped, and of those still running). Unlike wall time, this does not depend on
// how busy the machine is.
export function cpuSeconds(pid: number): number {
  const fields = stat(pid);
  if (!fields) return 0;
  // utime, stime, cutime, cstime: fields 14-17 of /proc/<pid>/stat, here from field 3.
  const own = [11, 12, 13, 14].reduce((sum, i) => sum + Number(fields[i]), 0) / TICKS_PER_SECOND;
  return own + childPids(pid).reduce((sum, child) => sum + cpuSeconds(child), 0);
}

// CPU seconds used by the children this process has reaped (Node reaps every child it spawned).
export function reapedChildrenCpuSeconds(): number {
  const fields = stat(process.pid)!;
  return (Number(fields[13]) + Number(fields[14])) / TICKS_PER_SECOND;
}

// How many times over the machine is booked (1-minute load average per core, at least 1): wall-time
// goals are set for an otherwise idle machine and stretched by this on a shared one.
export function loadFactor(): number {
  return Math.max(1, loadavg()[0] / availableParallelism());
}

export function machineLoad(): string {
  return `load average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(', ')} on ${availableParallelism()} cores`;
}
