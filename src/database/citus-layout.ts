import { Client } from 'pg';

// The schema's form on a Citus coordinator (the citus profile, docs/scaling.md#citus): which tables are
// reference tables (a full copy on every node, the coordinator included), applied after the migrations.
// On plain PostgreSQL and the built-in database nothing of this runs: the migrator finds no citus extension.

export type CitusTableKind = 'reference' | 'distributed' | 'citus local';

export interface CitusCluster {
  version: string;
  activeWorkers: number;
  /** Tables made reference tables by this run (already distributed ones are left as they are). */
  madeReference: string[];
  /** Every table Citus knows, by kind (a Citus local table: one Citus added to its metadata itself). */
  layout: Record<string, CitusTableKind>;
}

// Reference tables: a full copy on every node (the coordinator's own copy answers its reads, whichever
// worker is down; a write goes to every copy). Only api_keys for now: every other table is written or
// read together with imagery, the import's temporary tables or places in ways a coordinator cannot run
// while imagery stays a local table of the coordinator (measured, docs/scaling.md#citus): the vocabulary
// and ranked-list tables are written by imagery's statement triggers from their transition tables ("could
// not find named tuplestore" on a reference table), places is joined in the import's UPDATE of its
// temporary staging table ("relation ... is not distributed") and in relinking's UPDATE of imagery, and a
// read joining a local table with a reference table is shipped to a worker with the local rows.
export const CITUS_REFERENCE_TABLES: readonly string[] = ['api_keys'];

// Citus on this server: its version and active workers, and the reference tables made (once; a later
// start finds them made). Without an active worker nothing is changed: a reference table needs its nodes.
export async function citusLayout(client: Client): Promise<CitusCluster | undefined> {
  const ext = await client.query<{ version: string }>(
    "SELECT extversion AS version FROM pg_extension WHERE extname = 'citus'",
  );
  if (ext.rows.length === 0) return undefined;
  const workers = await client.query<{ n: number }>('SELECT count(*)::int AS n FROM citus_get_active_worker_nodes()');
  const activeWorkers = workers.rows[0].n;
  const madeReference: string[] = [];
  if (activeWorkers > 0) {
    const known = await tableKinds(client);
    for (const table of CITUS_REFERENCE_TABLES) {
      if (known[table] !== undefined) continue;
      // Copies the rows to every node; the table is locked (writes wait) while they are copied.
      await client.query('SELECT create_reference_table($1::regclass)', [table]);
      madeReference.push(table);
    }
  }
  return { version: ext.rows[0].version, activeWorkers, madeReference, layout: await tableKinds(client) };
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
    (c.madeReference.length > 0 ? ` (made reference now: ${c.madeReference.join(', ')})` : '')
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
