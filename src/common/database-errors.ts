// Errors that mean "the database cannot answer right now" rather than "this query is wrong".
// They arrive in several wrappings: Prisma errors (code P1001; or P2010 with the driver adapter's
// error in meta.driverAdapterError.cause), the adapter's own error kinds, and plain node-postgres
// errors that the adapter passes through untouched (connect and read timeouts, dropped connections).
const SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EPIPE',
  'EAI_AGAIN',
]);
const PRISMA_CODES = new Set(['P1001', 'P1002', 'P1017', 'P2024']);
const ADAPTER_KINDS = new Set(['DatabaseNotReachable', 'ConnectionClosed', 'SocketTimeout', 'TooManyConnections']);
// SQLSTATEs that mean "not now" (the full list; docs/api.md, Errors, says the same):
//   08xxx          connection exceptions (08001 cannot connect, 08006 connection failure, ...)
//   57P01..57P04   terminated by an administrator (pg_terminate_backend), crash shutdown, cannot connect
//                  now (starting up, in recovery), database dropped
//   53300          too many connections
//   55000          object not in prerequisite state: a database not accepting connections (ALTER DATABASE
//                  ... ALLOW_CONNECTIONS false, a database being dropped); the service's own statements
//                  raise it for nothing else
//   25006          read-only transaction: a write reached a server that became a standby (failover)
const PG_UNAVAILABLE = /^(08...|57P0[1-4]|53300|55000|25006)$/;
// 57014: statement_timeout (or a cancel) hit.
export const PG_TIMEOUT = '57014';
const PG_MESSAGES =
  /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Connection refused/i;
const PG_TIMEOUT_MESSAGES = /Query read timeout/i;

export type DatabaseTrouble = 'unavailable' | 'timeout';

// The fields read from an error of pg, Prisma or the driver adapter (any of them may be missing).
interface ErrorLike {
  code?: unknown;
  originalCode?: unknown;
  kind?: unknown;
  message?: unknown;
  cause?: unknown;
  meta?: { driverAdapterError?: unknown };
}

export function databaseTrouble(error: unknown): DatabaseTrouble | undefined {
  const seen = new Set<unknown>();
  const queue: unknown[] = [error];
  while (queue.length > 0 && seen.size < 10) {
    const e = queue.shift() as ErrorLike | null | undefined;
    if (!e || typeof e !== 'object' || seen.has(e)) continue;
    seen.add(e);
    for (const code of [e.code, e.originalCode]) {
      if (typeof code !== 'string') continue;
      if (code === PG_TIMEOUT) return 'timeout';
      if (SOCKET_CODES.has(code) || PRISMA_CODES.has(code) || PG_UNAVAILABLE.test(code)) return 'unavailable';
    }
    if (typeof e.kind === 'string' && ADAPTER_KINDS.has(e.kind)) return 'unavailable';
    if (typeof e.message === 'string') {
      if (PG_TIMEOUT_MESSAGES.test(e.message)) return 'timeout';
      if (PG_MESSAGES.test(e.message)) return 'unavailable';
    }
    queue.push(e.cause, e.meta?.driverAdapterError);
  }
  return undefined;
}

export function isDatabaseUnavailable(error: unknown): boolean {
  return databaseTrouble(error) !== undefined;
}
