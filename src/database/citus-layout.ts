import { Client } from 'pg';
import { WORKER_SESSION_SETTINGS } from './session-options';

// The schema's form on a Citus coordinator (the citus profile, docs/scaling.md#citus): which tables are
// reference tables (a full copy on every node, the coordinator included) and which is distributed over
// the workers, applied after the migrations.
// On plain PostgreSQL and the built-in database nothing of this runs: the migrator finds no citus extension.

export type CitusTableKind = 'reference' | 'distributed' | 'citus local';

export interface CitusCluster {
  version: string;
  activeWorkers: number;
  /** Tables this run made reference or distributed tables (those Citus knew already are left as they are). */
  made: string[];
  /** Every table Citus knows, by kind (a Citus local table: one Citus added to its metadata itself). */
  layout: Record<string, CitusTableKind>;
}

// The distributed form (docs/scaling.md#citus): imagery hashed by id over the workers (its primary key: a
// record's country changes when it is relinked, and Citus moves no row between shards), the tables read
// or written with it reference tables (a full copy on every node, the coordinator's own answering its
// reads; a write goes to every copy). The map's tables (map_features, coverage cells) stay on the
// coordinator: only the coordinator reads them, and it writes the coverage cells from imagery.
export const CITUS_REFERENCE_TABLES: readonly string[] = [
  'api_keys',
  'places',
  'imagery_words',
  'imagery_word_ranks',
  'imagery_word_lists',
  'imagery_word_ranks_state',
  'place_term_ranks',
  'place_term_lists',
  'place_term_state',
  'imagery_first_load',
];
export const CITUS_DISTRIBUTION_COLUMN = { imagery: 'id' } as const;
// imagery's statement triggers, dropped where it is distributed (Citus runs no trigger on a distributed
// table); its writers do their upkeep themselves there: the import (imagery-import-distributed.sql.ts)
// and relinking (READDRESSED_UPKEEP). A trigger added to imagery and not listed here stops the
// distribution (the migrator says which).
export const IMAGERY_TRIGGERS_DONE_BY_WRITERS: readonly string[] = ['words', 'word_ranks', 'coverage'].flatMap((kind) =>
  ['insert', 'update', 'delete', 'truncate']
    .filter((op) => !(kind === 'word_ranks' && op === 'insert'))
    .map((op) => `imagery_${kind}_on_${op}`),
);

// Citus on this server: its version and active workers, and the distributed form made (once, in one
// transaction; a later start finds it made). Its shard count is the coordinator's citus.shard_count. Without
// an active worker nothing is changed: the tables stay on the coordinator.
export async function citusLayout(client: Client): Promise<CitusCluster | undefined> {
  const ext = await client.query<{ version: string }>(
    "SELECT extversion AS version FROM pg_extension WHERE extname = 'citus'",
  );
  if (ext.rows.length === 0) return undefined;
  const workers = await client.query<{ n: number }>('SELECT count(*)::int AS n FROM citus_get_active_worker_nodes()');
  const activeWorkers = workers.rows[0].n;
  const made: string[] = [];
  if (activeWorkers > 0) {
    const known = await tableKinds(client);
    const reference = CITUS_REFERENCE_TABLES.filter((t) => known[t] === undefined);
    const distribute = known.imagery === undefined;
    if (reference.length > 0 || distribute) {
      await client.query('BEGIN');
      try {
        if (distribute) await dropImageryTriggers(client);
        // Each copies the table's rows to every node; the table is locked (writes wait) meanwhile.
        for (const table of reference) await client.query('SELECT create_reference_table($1::regclass)', [table]);
        if (distribute)
          await client.query("SELECT create_distributed_table('imagery', $1)", [CITUS_DISTRIBUTION_COLUMN.imagery]);
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      }
      made.push(...reference, ...(distribute ? ['imagery'] : []));
    }
  }
  if (activeWorkers > 0) await setWorkerSessions(client);
  return { version: ext.rows[0].version, activeWorkers, made, layout: await tableKinds(client) };
}

// The service's session settings on the database, which Citus passes on to every worker (the sessions the
// coordinator opens there read them; run at every start, so a worker added since gets them). Other
// sessions on the coordinator's database get them too. Needs the database's owner.
async function setWorkerSessions(client: Client): Promise<void> {
  const {
    rows: [{ name }],
  } = await client.query<{ name: string }>('SELECT quote_ident(current_database()) AS name');
  for (const [setting, value] of WORKER_SESSION_SETTINGS)
    await client.query(`ALTER DATABASE ${name} SET ${setting} = ${value}`);
}

async function dropImageryTriggers(client: Client): Promise<void> {
  const { rows } = await client.query<{ name: string }>(
    "SELECT tgname AS name FROM pg_trigger WHERE tgrelid = 'imagery'::regclass AND NOT tgisinternal ORDER BY 1",
  );
  const unknown = rows.map((r) => r.name).filter((t) => !IMAGERY_TRIGGERS_DONE_BY_WRITERS.includes(t));
  if (unknown.length > 0)
    throw new Error(
      `imagery cannot be distributed: its triggers ${unknown.join(', ')} have no upkeep by its writers (src/database/citus-layout.ts)`,
    );
  for (const { name } of rows) await client.query(`DROP TRIGGER ${name} ON imagery`);
}

async function tableKinds(client: Client): Promise<Record<string, CitusTableKind>> {
  const { rows } = await client.query<{ name: string; kind: CitusTableKind }>(
    `SELECT logicalrelid::regclass::text AS name,
            CASE WHEN partmethod <> 'n' THEN 'distributed' WHEN repmodel = 't' THEN 'reference' ELSE 'citus local' END AS kind
     FROM pg_dist_partition ORDER BY 1`,
  );
  return Object.fromEntries(rows.map((r) => [r.name, r.kind]));
}

// The start-up line: what the server is and what the schema is on it.
export function citusSummary(c: CitusCluster): string {
  const kinds = (kind: CitusTableKind) => Object.keys(c.layout).filter((t) => c.layout[t] === kind);
  const reference = kinds('reference');
  const distributed = kinds('distributed');
  const local = c.activeWorkers === 0 ? 'no active worker: every table stays on the coordinator' : null;
  return (
    `Citus ${c.version} coordinator with ${c.activeWorkers} active workers: ` +
    (local ??
      `reference tables ${reference.join(', ') || 'none'}; distributed ${distributed.join(', ') || 'none'}` +
        (c.layout.imagery === undefined ? '; imagery and the rest on the coordinator (docs/scaling.md#citus)' : '')) +
    (c.made.length > 0 ? ` (made now: ${c.made.join(', ')})` : '')
  );
}

// Whether imagery is a distributed table here (a Citus coordinator with imagery hashed over its workers,
// docs/scaling.md#citus): some search statements take another form then, one Citus plans (see
// src/search/sql/place-pins.sql.ts). False on plain PostgreSQL, the built-in database, and a coordinator
// holding imagery itself; read once when the service starts (distributing imagery needs a restart).
export async function imageryIsDistributed(db: {
  query: (text: string) => Promise<{ rows: Array<{ distributed: boolean }> }>;
}): Promise<boolean> {
  const { rows } = await db.query(`SELECT EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'citus') AS distributed`);
  if (!rows[0]?.distributed) return false;
  const dist = await db.query(
    `SELECT EXISTS (SELECT 1 FROM pg_dist_partition
       WHERE logicalrelid = to_regclass('imagery') AND partmethod <> 'n') AS distributed`,
  );
  return dist.rows[0]?.distributed === true;
}
