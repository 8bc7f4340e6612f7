import { Client } from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { BUILT_IN_SESSION, GenerateSql, NoSql } from '../generate-sql';
import { columnArrays, copyRows, StagedColumn } from './staged-columns';

/** The statements every import session needs on each of its connections. */
export interface SessionSql {
  copyIn: string;
  insertArrays: string;
  /** Drops the connection's temporary tables (the built-in database keeps them otherwise). */
  drop: string;
}

export interface UpsertCounts {
  inserted: number;
  updated: number;
  unchanged: number;
}

export interface Writer<S> {
  client: Client;
  sql: S;
}

export interface BulkSessionOptions {
  /** The source whose advisory lock the session holds while it writes (none: no lock). */
  source: string | null;
  /** Classify rows (insert/update/unchanged) without changing the table. */
  dryRun: boolean;
}

export interface OpenBulkSession<S> extends BulkSessionOptions {
  /** Namespaces the per-source advisory lock (two-key form, apart from the migrator's single-key lock). */
  lockClass: string;
  /** The error (of the caller's feature) when another import holds the source's lock. */
  busy: () => Error;
  /** A connection's statements, for fresh temporary table names. */
  sql: () => S;
  /** The statements that set a connection up (its temporary tables). */
  setup: (sql: S) => string[];
}

/** What a subclass gets from openWriters. */
export interface OpenedWriters<S> {
  writers: Array<Writer<S>>;
  /** The built-in database (PGlite): one lasting session for all connections, no COPY FROM STDIN. */
  builtIn: boolean;
}

// Bulk-import connections (the imagery and places importers): COPY into a temporary staging table, then
// set-based statements per batch, each batch in its own transaction, on one or more connections at
// once. Raw pg because Prisma cannot COPY. On PostgreSQL everything is session-scoped (tables, the source
// lock), so a killed import leaves nothing behind but whole committed batches; the built-in database
// serves every connection from one lasting session, so close() releases them there.
export abstract class BulkImportSession<R, S extends SessionSql> {
  private readonly idle: Array<Writer<S>>;
  private readonly waiting: Array<(writer: Writer<S>) => void> = [];

  protected constructor(
    protected readonly writers: Array<Writer<S>>,
    protected readonly options: BulkSessionOptions & { lockClass: string },
    private readonly staging: { table: string; columns: readonly StagedColumn<R>[]; copy: boolean; builtIn: boolean },
  ) {
    this.idle = [...writers];
  }

  // Sets up `clients` (fresh connections; on the built-in database only the first is used): takes the
  // source's lock unless dry-running, and creates each connection's tables. Ends them all on failure.
  protected static async openWriters<S>(clients: Client[], o: OpenBulkSession<S>): Promise<OpenedWriters<S>> {
    try {
      // The built-in database (PGlite) serves every connection from one session and cannot COPY FROM
      // STDIN over its socket (the connection is dropped): one connection, array parameters instead.
      const { rows: server } = await clients[0].query<{ pglite: boolean }>(
        "SELECT version() LIKE '%PGlite%' AS pglite",
      );
      const builtIn = server[0].pglite;
      const used = builtIn ? clients.slice(0, 1) : clients;
      await Promise.all(clients.slice(used.length).map((c) => c.end().catch(() => undefined)));
      clients = used;
      const writers = used.map((client) => ({ client, sql: o.sql() }));
      if (o.source !== null && !o.dryRun) {
        const { rows } = await clients[0].query<{ locked: boolean }>(
          'SELECT pg_try_advisory_lock(hashtext($1), hashtext($2)) AS locked',
          [o.lockClass, o.source],
        );
        if (!rows[0].locked) {
          throw o.busy();
        }
      }
      for (const { client, sql } of writers) {
        // Batches are small and many: JIT compiling each statement costs more than it saves.
        await client.query('SET jit = off');
        for (const statement of o.setup(sql)) await client.query(statement);
      }
      return { writers, builtIn };
    } catch (error) {
      await Promise.all(clients.map((c) => c.end().catch(() => undefined)));
      throw error;
    }
  }

  /** Connections writing batches in parallel. */
  get connections(): number {
    return this.writers.length;
  }

  // Stages `rows` on an idle connection and runs `work` on them in the same transaction: all of it or
  // none of it.
  @NoSql("stages a batch for writeBatch (declared in each importer's session)")
  protected async inBatch<T>(rows: readonly R[], work: (writer: Writer<S>) => Promise<T>): Promise<T> {
    const writer = await this.acquire();
    const { client, sql } = writer;
    try {
      await client.query('BEGIN');
      try {
        const { columns, copy } = this.staging;
        if (copy) await pipeline(Readable.from([copyRows(columns, rows)]), client.query(copyFrom(sql.copyIn)));
        else await client.query(sql.insertArrays, columnArrays(columns, rows));
        const result = await work(writer);
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      }
    } finally {
      this.release(writer);
    }
  }

  // After a change: fresh column statistics (the planner reads them, and search's catalogue size), and
  // the GIN indexes' pending lists merged into the indexes. Both are autovacuum's work, which may take
  // minutes to come (the built-in database has none); until then every text search reads the whole
  // pending list (up to gin_pending_list_limit), many times slower than the merged index
  // (docs/benchmarks.md#fig-analyze-after-import). Only the indexes the importing role owns can be
  // merged (PostgreSQL's rule); autovacuum merges the others.
  @GenerateSql()
  async analyze(): Promise<void> {
    if (this.options.dryRun) return;
    const { client } = this.writers[0];
    await client.query(`ANALYZE ${this.staging.table}`);
    await client.query(
      `SELECT count(gin_clean_pending_list(x.indexrelid))::int AS merged
       FROM pg_index x JOIN pg_class c ON c.oid = x.indexrelid JOIN pg_am a ON a.oid = c.relam
       WHERE x.indrelid = $1::regclass AND a.amname = 'gin' AND pg_has_role(c.relowner, 'USAGE')`,
      [this.staging.table],
    );
  }

  // Ends the connections; on PostgreSQL the lock and the tables go with them, on the built-in database
  // (one lasting session) they are released here.
  @GenerateSql({
    name: 'built-in database (one lasting session; on PostgreSQL nothing: all ends with the connections)',
    params: () => [],
    subjectAnswers: BUILT_IN_SESSION,
  })
  async close(): Promise<void> {
    const { source, dryRun, lockClass } = this.options;
    await Promise.all(
      this.writers.map(async ({ client, sql }, i) => {
        if (this.staging.builtIn) {
          await client.query(sql.drop).catch(() => undefined);
          if (i === 0 && source !== null && !dryRun) {
            await client
              .query('SELECT pg_advisory_unlock(hashtext($1), hashtext($2))', [lockClass, source])
              .catch(() => undefined);
          }
        }
        await client.end().catch(() => undefined);
      }),
    );
  }

  @NoSql('hands out an idle connection')
  private acquire(): Promise<Writer<S>> {
    const writer = this.idle.pop();
    return writer ? Promise.resolve(writer) : new Promise((resolve) => this.waiting.push(resolve));
  }

  @NoSql('returns a connection to the idle ones')
  private release(writer: Writer<S>): void {
    const next = this.waiting.shift();
    if (next) next(writer);
    else this.idle.push(writer);
  }
}
