import { AsyncLocalStorage } from 'node:async_hooks';
import net from 'node:net';
import type { PoolClient } from 'pg';

// A deadline for a piece of work that sends statements (a search request): when it passes, the work's
// caller gets the error at once, whatever the database is doing (waiting for a lock, for a pooled
// connection, or running); the statements it has in flight are cancelled (PostgreSQL's CancelRequest,
// on a connection of its own, so a pool with no connection free does not stop it), and any statement
// it would send later is refused before it is sent.
export class DeadlinePassed extends Error {
  constructor() {
    super('the deadline of the work that sent this statement has passed');
  }
}

interface Connected {
  host?: string;
  port?: number;
  processID?: number | null;
  secretKey?: number | null;
}

class Deadline {
  passed = false;
  private readonly running = new Map<PoolClient, (error: Error) => void>();

  // A cancelled connection goes back to its pool as broken and is closed: a CancelRequest cancels
  // whatever its backend runs when it arrives, which must never be another request's statement.
  pass(): void {
    this.passed = true;
    for (const [client, broken] of this.running) {
      broken(new DeadlinePassed());
      cancelStatement(client as PoolClient & Connected);
    }
    this.running.clear();
  }

  /**
   * One statement (or transaction) on a held connection; `broken` sends the connection back to its pool
   * as broken (held-client.ts). `cancellable`: false where the server takes no CancelRequest (the
   * built-in database's socket server).
   */
  async run<T>(
    client: PoolClient,
    broken: (error: Error) => void,
    cancellable: boolean,
    statement: () => Promise<T>,
  ): Promise<T> {
    if (this.passed) throw new DeadlinePassed();
    if (cancellable) this.running.set(client, broken);
    try {
      return await statement();
    } finally {
      this.running.delete(client);
    }
  }
}

const current = new AsyncLocalStorage<Deadline>();

export type StatementDeadline = Pick<Deadline, 'passed' | 'run'>;

/** The deadline of the work this statement belongs to, if any (read-router.ts asks). */
export function statementDeadline(): StatementDeadline | undefined {
  return current.getStore();
}

// `work` runs under a deadline of `ms`; past it, the answer is `whenPassed()` thrown at once. The
// work goes on only until its next statement (cancelled, or refused), and its outcome is dropped.
export async function withinDeadline<T>(ms: number, work: () => Promise<T>, whenPassed: () => Error): Promise<T> {
  const deadline = new Deadline();
  const running = current.run(deadline, work);
  let timer: NodeJS.Timeout | undefined;
  const passed = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      deadline.pass();
      reject(whenPassed());
    }, ms);
  });
  running.catch(() => undefined); // its failure after the deadline is nobody's concern
  try {
    return await Promise.race([running, passed]);
  } finally {
    clearTimeout(timer);
  }
}

const CANCEL_REQUEST_CODE = 80877102;
const CANCEL_WAIT_MS = 2_000;

// PostgreSQL's CancelRequest for the statement a connection is running: a 16-byte message on a new
// connection, which the server closes after it.
function cancelStatement(client: Connected): void {
  if (!client.processID || client.secretKey === null || client.secretKey === undefined || !client.port) return;
  const message = Buffer.alloc(16);
  message.writeInt32BE(16, 0);
  message.writeInt32BE(CANCEL_REQUEST_CODE, 4);
  message.writeInt32BE(client.processID, 8);
  message.writeInt32BE(client.secretKey, 12);
  const host = client.host ?? 'localhost';
  const socket = host.startsWith('/') ? net.connect(`${host}/.s.PGSQL.${client.port}`) : net.connect(client.port, host);
  socket.setTimeout(CANCEL_WAIT_MS, () => socket.destroy());
  socket.on('error', () => undefined); // best effort: the statement's own timeout still bounds it
  socket.on('connect', () => socket.end(message));
}
