import type { Client } from 'pg';

// Runs `work` for every item on `clients` at once, each connection taking the next item as it frees up
// (give the costliest first). The first failure stops every connection after its current item and is
// what this throws; the items finished stay done.
export async function shareAmongConnections<T>(
  clients: Client[],
  items: readonly T[],
  work: (client: Client, item: T) => Promise<unknown>,
): Promise<void> {
  const queue = [...items];
  let failure: { error: unknown } | undefined;
  await Promise.all(
    clients.map(async (client) => {
      for (let next = queue.shift(); next !== undefined && !failure; next = queue.shift())
        await work(client, next).catch((error: unknown) => (failure ??= { error }));
    }),
  );
  if (failure) throw failure.error;
}
