import type { Pool, PoolClient } from 'pg';

// A pooled connection checked out for several statements (pool.query does this itself). The pool
// hears its 'error' while it is out (checked-out-clients.ts); here an error it emitted, or `work`
// calling `broken`, sends it back marked broken, so the pool discards it.
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
