// Errors that mean "the database cannot be reached right now" rather than "this query is wrong".
const CONNECTION_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'ENOTFOUND', 'EHOSTUNREACH', 'EPIPE']);
const PRISMA_CONNECTION_CODES = new Set(['P1001', 'P1002', 'P1017', 'P2024']);
// 57P01..57P03: admin shutdown / cannot connect now; 08xxx: connection exceptions; 53300: too many connections.
const PG_UNAVAILABLE = /^(08...|57P0[123]|53300)$/;

export function isDatabaseUnavailable(error: unknown): boolean {
  for (let e: any = error, depth = 0; e && depth < 5; e = e.cause, depth++) {
    const code = typeof e.code === 'string' ? e.code : undefined;
    if (code && (CONNECTION_CODES.has(code) || PRISMA_CONNECTION_CODES.has(code) || PG_UNAVAILABLE.test(code))) {
      return true;
    }
    const original = e.meta?.driverAdapterError?.cause ?? e.cause;
    if (original?.kind === 'DatabaseNotReachable' || original?.kind === 'SocketTimeout') return true;
    if (typeof e.message === 'string' && /Connection terminated|timeout exceeded when trying to connect/i.test(e.message)) {
      return true;
    }
  }
  return false;
}
