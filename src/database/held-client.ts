import type { Pool, PoolClient } from 'pg';

// A pooled connection checked out for several statements (pool.query does this itself). While it is
// held the pool listens for nothing: a connection the server ends (pg_terminate_backend, a restart,
// a failover) emits 'error', which without a listener ends the process. The connection goes back
// marked broken (so the pool discards it) when it emitted an error or `work` calls `broken`.
export async function withHeldClient<T>(
  pool: Pool,
  work: (client: PoolClient, broken: (error: unknown) => void) => Promise<T>,
): Promise<T> {
  const client = await pool.connect();
  let failure: Error | undefined;
  const broken = (error: unknown) => (failure ??= error instanceof Error ? error : new Error(String(error)));
  client.on('error', broken);
  try {
    return await work(client, broken);
  } finally {
    client.removeListener('error', broken);
    client.release(failure);
  }
}
