import type { Client } from 'pg';
import { shareAmongConnections } from '../../database/bulk-import/shared-queue';
import { GenerateSql, NoSql, SqlSubject } from '../../database/generate-sql';

// Held on the lead connection for as long as a first load runs (or is being finished): a session lock,
// so a load whose process died is known by it being free while its row (imagery_first_load) is left.
const FIRST_LOAD_LOCK = 'lis-imagery-first-load';

const SAMPLE_INDEXES = [
  'CREATE INDEX IF NOT EXISTS imagery_address_norm_trgm_idx ON public.imagery USING gin (address_norm gin_trgm_ops)',
  'CREATE INDEX IF NOT EXISTS imagery_source_idx ON public.imagery USING btree (source)',
];

// A first load (see the first_load migration): an import into an empty catalogue writes its batches
// without the secondary indexes and builds them once at its end, the builds shared by the import's
// connections (the costliest first; docs/benchmarks.md#fig-first-load). Not on the built-in database
// (one session for every connection: the lock could not tell a live load from a dead one).
@SqlSubject((db) => new ImageryFirstLoadSession([db.client(), db.client()]))
export class ImageryFirstLoadSession {
  /** Whether acquire() found a load cut off and finished it. */
  finishedAbandoned = false;

  // `clients`: the import's connections (or the server's), the first one leading.
  constructor(private readonly clients: Client[]) {}

  // Starts a first load if the catalogue is empty (finishing one that was cut off first). null: import
  // the usual way.
  static async start(clients: Client[]): Promise<ImageryFirstLoadSession | null> {
    const load = new ImageryFirstLoadSession(clients);
    if (!(await load.acquire())) return null;
    if (await load.begin()) return load;
    await load.unlock();
    return null;
  }

  // Finishes a first load whose process died (its lock is free, its row is left): the server's start
  // calls this. Returns whether there was one.
  static async finishAbandoned(clients: Client[]): Promise<boolean> {
    const load = new ImageryFirstLoadSession(clients);
    if (!(await load.acquire())) return false;
    await load.unlock();
    return load.finishedAbandoned;
  }

  // Takes the lock without waiting (someone holding it is loading: false) and finishes what a dead
  // load left.
  @GenerateSql(
    { name: 'nothing left', answers: [[{ held: true }], [{ abandoned: false }]] },
    {
      name: 'a load cut off: finished first',
      answers: [[{ held: true }], [{ abandoned: true }], [{ indexes: SAMPLE_INDEXES }]],
    },
  )
  async acquire(): Promise<boolean> {
    const [lead] = this.clients;
    const { rows } = await lead.query<{ held: boolean }>('SELECT pg_try_advisory_lock(hashtext($1)) AS held', [
      FIRST_LOAD_LOCK,
    ]);
    if (rows[0]?.held !== true) return false;
    try {
      const { rows: left } = await lead.query<{ abandoned: boolean }>(
        'SELECT EXISTS (SELECT 1 FROM imagery_first_load) AS abandoned',
      );
      if (left[0]?.abandoned === true) {
        await this.finish();
        this.finishedAbandoned = true;
      }
      return true;
    } catch (error) {
      await this.unlock().catch(() => undefined);
      throw error;
    }
  }

  // Sets the secondary indexes aside if the catalogue is empty (lis_begin_first_load).
  @GenerateSql({ answers: [[{ begun: true }]] })
  async begin(): Promise<boolean> {
    const { rows } = await this.clients[0].query<{ begun: boolean }>('SELECT lis_begin_first_load() AS begun');
    return rows[0]?.begun === true;
  }

  // Builds the indexes set aside, each connection taking the next one as it frees up, then deletes the
  // row. A failure leaves it: the next import or server start finishes the load (IF NOT EXISTS).
  @GenerateSql({
    name: 'two indexes on two connections',
    answers: [[{ indexes: SAMPLE_INDEXES }]],
  })
  async finish(): Promise<void> {
    const [lead] = this.clients;
    const { rows } = await lead.query<{ indexes: string[] }>('SELECT indexes FROM imagery_first_load');
    await shareAmongConnections(this.clients, rows[0]?.indexes ?? [], (client, index) => client.query(index));
    await lead.query('DELETE FROM imagery_first_load');
  }

  @GenerateSql()
  async unlock(): Promise<void> {
    await this.clients[0].query('SELECT pg_advisory_unlock(hashtext($1))', [FIRST_LOAD_LOCK]);
  }

  // The load's end: finished, then the lock let go (also when finishing failed).
  @NoSql('finish() then unlock() (declared there)')
  async end(): Promise<void> {
    try {
      await this.finish();
    } finally {
      await this.unlock().catch(() => undefined);
    }
  }
}
