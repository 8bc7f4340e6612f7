import type { Pool, PoolClient } from 'pg';

// A pg pool listens for a connection's 'error' only while the connection is idle in it. One checked
// out (pool.connect(): a held transaction, Prisma's, or a connection just handed to a waiter whose
// code runs a tick later) is heard by its holder alone, if at all; and PostgreSQL's goodbye (57P01 from
// pg_terminate_backend, a shutdown, a failover) can arrive when no statement is in flight, even in the
// same read as the previous statement's end, before the next holder has attached anything. An 'error'
// nobody hears ends the process. So every pool hears its connections from the moment it hands one out
// ('acquire') until it is back ('release'). The holder learns of the loss from its next statement
// (the connection is no longer queryable), and the pool discards the connection when it comes back.
export function hearCheckedOutClients(pool: Pool, onLost: (error: Error) => void): void {
  const reported = new WeakSet<PoolClient>();
  const listeners = new WeakMap<PoolClient, (error: Error) => void>();
  pool.on('acquire', (client) => {
    const listener = (error: Error) => {
      if (reported.has(client)) return; // its closed socket follows the goodbye: one loss, one report
      reported.add(client);
      onLost(error);
    };
    listeners.set(client, listener);
    client.on('error', listener);
  });
  pool.on('release', (_error, client) => {
    const listener = listeners.get(client);
    if (listener) client.removeListener('error', listener);
    listeners.delete(client);
  });
}
