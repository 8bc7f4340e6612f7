// One run of the load matrix (a class, a concurrency, a server), whatever goes wrong in it: a run
// that fails (a server gone, a database connection dropped, the load generator's own error) is a
// row of the report marked failed, never the end of the bench; a server that exited is started
// again for the next run.
import type { LoadResult, RunningServer } from './bench-load';

export function failedLoad(failure: string): LoadResult {
  return {
    failure,
    serverCpuUs: null,
    requests: 0,
    ok: 0,
    rps: 0,
    p50: 0,
    p95: 0,
    p99: 0,
    errors: 0,
    timeouts: 0,
    non2xx: 0,
    seconds: 0,
  };
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

export interface MeasuredCell {
  /** The server the run used: the one given, or the one started in its place. */
  server: RunningServer;
  result: LoadResult;
  /** What happened besides the load (a restart), for the run's log. */
  notes: string[];
}

// `run` drives the load; `restart` starts a server of the same kind.
export async function measureCell(
  server: RunningServer,
  restart: () => Promise<RunningServer>,
  run: (s: RunningServer) => Promise<LoadResult>,
): Promise<MeasuredCell> {
  let s = server;
  const notes: string[] = [];
  try {
    s.assertRunning();
  } catch (exited) {
    notes.push(messageOf(exited));
    try {
      s = await restart();
      notes.push(`${s.kind} server started again`);
    } catch (error) {
      return { server: s, result: failedLoad(`${messageOf(exited)}; starting it again: ${messageOf(error)}`), notes };
    }
  }
  try {
    const result = await run(s);
    // Its figures are those of a server that died under the load: kept, but the row says so.
    try {
      s.assertRunning();
    } catch (exited) {
      return { server: s, result: { ...result, failure: messageOf(exited) }, notes };
    }
    return { server: s, result, notes };
  } catch (error) {
    return { server: s, result: failedLoad(messageOf(error)), notes };
  }
}
