import { Client } from 'pg';

// How far a standby's data is behind its primary, in seconds. now() - the last replayed commit's
// time alone grows while the primary is idle, so "everything received is replayed" counts as caught
// up. NULL receive position (not streaming yet) falls through to the timestamp.
export const REPLICA_LAG_SQL = `SELECT pg_is_in_recovery() AS standby,
  CASE WHEN pg_last_wal_receive_lsn() = pg_last_wal_replay_lsn() THEN 0
       ELSE EXTRACT(EPOCH FROM now() - pg_last_xact_replay_timestamp())
  END::float8 AS lag`;

export type ReplicaCheck = { ok: true; lagSeconds: number } | { ok: false; reason: string; lagSeconds?: number };

// On its own short-lived connection, not the replica's pool: a pool busy with searches would make
// the check wait for a free connection and time out, and mark a working replica down.
export async function checkReplica(url: string, maxLagSeconds: number, timeoutMs: number): Promise<ReplicaCheck> {
  const client = new Client({
    connectionString: url,
    connectionTimeoutMillis: timeoutMs,
    query_timeout: timeoutMs,
    application_name: 'location-imagery-search-replica-check',
  });
  client.on('error', () => undefined); // a connection dropped after the check: nothing to do
  try {
    await client.connect();
    const { rows } = await client.query<{ standby: boolean; lag: number | null }>(REPLICA_LAG_SQL);
    const [{ standby, lag }] = rows;
    // A promoted (or mistyped) server no longer follows the primary's writes.
    if (!standby) return { ok: false, reason: 'not a standby (pg_is_in_recovery() is false)' };
    // No commit replayed since the standby started: nothing to measure from, counted as caught up.
    const lagSeconds = Math.max(0, lag ?? 0);
    if (lagSeconds > maxLagSeconds)
      return {
        ok: false,
        lagSeconds,
        reason: `lags ${lagSeconds.toFixed(1)} s (REPLICA_MAX_LAG_S is ${maxLagSeconds})`,
      };
    return { ok: true, lagSeconds };
  } catch (error) {
    return { ok: false, reason: `unreachable: ${(error as Error).message}` };
  } finally {
    await client.end().catch(() => undefined);
  }
}
