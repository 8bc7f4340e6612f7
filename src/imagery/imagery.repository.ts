import { Inject, Injectable } from '@nestjs/common';
import { Prisma } from '@prisma/client';
import { Client } from 'pg';
import { from as copyFrom, to as copyTo } from 'pg-copy-streams';
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { PrismaService } from '../database/prisma.service';
import { ImageryRecord } from './imagery-feature';
import { ImageryException, ImageryExceptionCode } from './imagery.exception';

export interface UpsertCounts {
  inserted: number;
  updated: number;
  unchanged: number;
}

export interface ImportSessionOptions {
  source: string | null;
  /** Classify records (insert/update/unchanged) without changing the catalogue. */
  dryRun: boolean;
  /** Remember every id written, for deleteMissing() at the end. */
  trackSeen: boolean;
  /** Connections writing batches in parallel (default 1). */
  connections?: number;
  /** false: stage batches with array parameters instead of COPY (chosen by itself on the built-in database). */
  copy?: boolean;
}

export interface ExportFilter {
  source?: string | null;
}

// The columns a batch is copied into, in COPY order.
const STAGING_COLUMNS = 'id, address, captured_at, heading, interactive, image_url, lon, lat';
const DATA_COLUMNS = ['address', 'captured_at', 'heading', 'interactive', 'image_url', 'location', 'source'];
const changed = (current: string, incoming: string) =>
  `(${DATA_COLUMNS.map((c) => `${current}.${c}`).join(', ')}) IS DISTINCT FROM (${DATA_COLUMNS.map((c) => `${incoming}.${c}`).join(', ')})`;

/** Names of one connection's temporary tables. */
export interface ImportTables {
  staging: string;
  seen: string;
}

// Fresh names per connection: temporary tables are session-local on PostgreSQL, but the built-in
// database (PGlite) has one session for all connections, where a killed import's tables outlive it.
export function importTables(): ImportTables {
  const suffix = randomBytes(6).toString('hex');
  return { staging: `imagery_import_staging_${suffix}`, seen: `imagery_import_seen_${suffix}` };
}

// Every statement of a bulk import, for one connection's tables (names come from importTables, never
// from input).
export function importSql(t: ImportTables) {
  // The staged batch as imagery rows, each with the current row of the same id (cur.found is null when
  // there is none). The probe is a LATERAL subquery fenced with OFFSET 0 so it stays one primary-key
  // lookup per staged row: as a join, the planner may hash or scan the whole catalogue for every batch.
  const incomingWithCurrent = `
    WITH n AS (
      SELECT s.id, s.address, s.captured_at, s.heading, s.interactive, s.image_url,
             ST_SetSRID(ST_MakePoint(s.lon, s.lat), 4326) AS location, $1::text AS source
      FROM ${t.staging} s
    )
    SELECT n.*, cur.found, ${changed('cur', 'n')} AS changed
    FROM n
    LEFT JOIN LATERAL (
      SELECT true AS found, ${DATA_COLUMNS.map((c) => `t.${c}`).join(', ')} FROM imagery t WHERE t.id = n.id OFFSET 0
    ) cur ON true`;

  return {
    // ON COMMIT DELETE ROWS empties the staging table after every batch (on rollback it was never filled).
    createStaging: `
      CREATE TEMP TABLE ${t.staging} (
        id uuid NOT NULL, address text NOT NULL, captured_at date NOT NULL, heading float8 NOT NULL,
        interactive boolean NOT NULL, image_url text NOT NULL, lon float8 NOT NULL, lat float8 NOT NULL
      ) ON COMMIT DELETE ROWS`,
    createSeen: `CREATE TEMP TABLE ${t.seen} (id uuid NOT NULL)`,
    copyIn: `COPY ${t.staging} (${STAGING_COLUMNS}) FROM STDIN`,
    // For servers that cannot COPY FROM STDIN (the built-in database): one array parameter per column.
    insertArrays: `
      INSERT INTO ${t.staging} (${STAGING_COLUMNS})
      SELECT * FROM unnest($1::uuid[], $2::text[], $3::date[], $4::float8[], $5::boolean[], $6::text[], $7::float8[], $8::float8[])`,

    // One set-based upsert per batch. Unchanged rows are filtered out by the read-only probe first, so
    // re-importing a file writes nothing at all (ON CONFLICT would still lock every row); the WHERE on
    // the update keeps that true under concurrent writers. (xmax = 0) tells inserts from updates; rows
    // go in id order so concurrent imports take locks alike.
    upsert: `
      WITH up AS (
        INSERT INTO imagery AS t (id, address, captured_at, heading, interactive, image_url, location, source)
        SELECT n.id, n.address, n.captured_at, n.heading, n.interactive, n.image_url, n.location, n.source
        FROM (${incomingWithCurrent}) n
        WHERE n.found IS NULL OR n.changed
        ORDER BY n.id
        ON CONFLICT (id) DO UPDATE SET
          address = EXCLUDED.address, captured_at = EXCLUDED.captured_at, heading = EXCLUDED.heading,
          interactive = EXCLUDED.interactive, image_url = EXCLUDED.image_url, location = EXCLUDED.location,
          source = EXCLUDED.source, updated_at = now()
        WHERE ${changed('t', 'EXCLUDED')}
        RETURNING (t.xmax = 0) AS inserted
      )
      SELECT count(*) FILTER (WHERE inserted)::int AS inserted, count(*) FILTER (WHERE NOT inserted)::int AS updated FROM up`,

    // The dry-run twin of upsert: the same probe and comparison, read-only.
    classify: `
      SELECT count(*) FILTER (WHERE n.found IS NULL)::int AS inserted, count(*) FILTER (WHERE n.found AND n.changed)::int AS updated
      FROM (${incomingWithCurrent}) n`,

    rememberSeen: `INSERT INTO ${t.seen} (id) SELECT id FROM ${t.staging}`,
    copySeenOut: `COPY ${t.seen} (id) TO STDOUT`,
    copySeenIn: `COPY ${t.seen} (id) FROM STDIN`,
    analyzeSeen: `ANALYZE ${t.seen}`,
    // Records of the source that the whole input did not contain (a hash anti-join on the seen ids).
    missingWhere: `t.source = $1 AND NOT EXISTS (SELECT 1 FROM ${t.seen} s WHERE s.id = t.id)`,
    drop: `DROP TABLE IF EXISTS ${t.staging}, ${t.seen}`,
  };
}

type ImportSql = ReturnType<typeof importSql>;

// The export shape: exactly what the importer reads back.
const RECORD_COLUMNS = `id::text AS id, address, to_char(captured_at, 'YYYY-MM-DD') AS "capturedAt", heading, interactive,
  image_url AS "imageUrl", ST_X(location) AS lon, ST_Y(location) AS lat`;

// One page of the export: keyset pagination along the primary key ($2: the last id of the previous page).
export const EXPORT_PAGE = `SELECT ${RECORD_COLUMNS} FROM imagery i
  WHERE ($1::text IS NULL OR i.source = $1) AND ($2::uuid IS NULL OR i.id > $2) ORDER BY i.id LIMIT $3`;

// Bulk statements (a batch upsert, the final delete) may legitimately outlast the API's statement
// timeout, above all while GIN indexes merge their pending lists; they get this bound instead.
export const BULK_STATEMENT_TIMEOUT_MS = 10 * 60_000;

// Namespaces the per-source advisory lock (two-key form, apart from the migrator's single-key lock).
const IMPORT_LOCK_CLASS = 'lis-imagery-import';

const COPY_ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };
const copyText = (s: string) => (/[\\\t\n\r]/.test(s) ? s.replace(/[\\\t\n\r]/g, (c) => COPY_ESCAPES[c]) : s);

// COPY text format: one line per record, tab-separated, backslash escapes.
export function copyRows(records: ImageryRecord[]): string {
  let out = '';
  for (const r of records) {
    out += `${r.id}\t${copyText(r.address)}\t${r.capturedAt}\t${r.heading}\t${r.interactive ? 't' : 'f'}\t${copyText(r.imageUrl)}\t${r.lon}\t${r.lat}\n`;
  }
  return out;
}

interface Writer {
  client: Client;
  sql: ImportSql;
}

// Bulk-import connections: COPY into a temporary staging table, then one set-based statement per
// batch, each batch in its own transaction, on up to `connections` connections at once (index
// maintenance makes the upsert CPU-bound in one backend; a second one uses the second core). Raw pg
// because Prisma cannot COPY. On PostgreSQL everything is session-scoped (tables, the source lock), so
// a killed import leaves nothing behind but whole committed batches.
export class ImageryImportSession {
  private readonly idle: Writer[];
  private readonly waiting: Array<(writer: Writer) => void> = [];

  private constructor(
    private readonly writers: Writer[],
    private readonly options: ImportSessionOptions,
    private readonly copy: boolean,
    private readonly builtIn: boolean,
  ) {
    this.idle = [...writers];
  }

  get connections(): number {
    return this.writers.length;
  }

  // `clients` are fresh connections; on the built-in database only the first is used.
  static async open(clients: Client[], options: ImportSessionOptions): Promise<ImageryImportSession> {
    let writers: Writer[] = [];
    try {
      // The built-in database (PGlite) serves every connection from one session and cannot COPY FROM
      // STDIN over its socket (the connection is dropped): one connection, array parameters instead.
      const { rows: server } = await clients[0].query<{ pglite: boolean }>("SELECT version() LIKE '%PGlite%' AS pglite");
      const builtIn = server[0].pglite;
      const used = builtIn ? clients.slice(0, 1) : clients;
      await Promise.all(clients.slice(used.length).map((c) => c.end().catch(() => undefined)));
      writers = used.map((client) => ({ client, sql: importSql(importTables()) }));

      if (options.source !== null && !options.dryRun) {
        const { rows } = await clients[0].query<{ locked: boolean }>(
          'SELECT pg_try_advisory_lock(hashtext($1), hashtext($2)) AS locked',
          [IMPORT_LOCK_CLASS, options.source],
        );
        if (!rows[0].locked) {
          throw new ImageryException(ImageryExceptionCode.SOURCE_BUSY, `another import of source "${options.source}" is running; try again when it has finished`);
        }
      }
      for (const { client, sql } of writers) {
        // Batches are small and many: JIT compiling each statement costs more than it saves.
        await client.query('SET jit = off');
        await client.query(sql.createStaging);
        if (options.trackSeen) await client.query(sql.createSeen);
      }
      return new ImageryImportSession(writers, options, !builtIn && options.copy !== false, builtIn);
    } catch (error) {
      await Promise.all(clients.map((c) => c.end().catch(() => undefined)));
      throw error;
    }
  }

  // Stages, upserts (or classifies) and remembers one batch atomically: all of it or none of it.
  async writeBatch(records: ImageryRecord[]): Promise<UpsertCounts> {
    if (records.length === 0) return { inserted: 0, updated: 0, unchanged: 0 };
    const writer = await this.acquire();
    const { client, sql } = writer;
    try {
      await client.query('BEGIN');
      try {
        if (this.copy) {
          await pipeline(Readable.from([copyRows(records)]), client.query(copyFrom(sql.copyIn)));
        } else {
          await client.query(sql.insertArrays, columnArrays(records));
        }
        const { rows } = await client.query<{ inserted: number; updated: number }>(this.options.dryRun ? sql.classify : sql.upsert, [this.options.source]);
        if (this.options.trackSeen) await client.query(sql.rememberSeen);
        await client.query('COMMIT');
        const { inserted, updated } = rows[0];
        return { inserted, updated, unchanged: records.length - inserted - updated };
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      }
    } finally {
      this.release(writer);
    }
  }

  // Deletes (or, in a dry run, counts) the source's records that no batch of this session contained.
  async deleteMissing(): Promise<number> {
    if (!this.options.trackSeen || this.options.source === null) throw new Error('deleteMissing needs a source and trackSeen');
    const [primary, ...others] = this.writers;
    // Each connection remembered the ids it wrote; gather them on the first, streamed (never in memory).
    for (const other of others) {
      await pipeline(other.client.query(copyTo(other.sql.copySeenOut)), primary.client.query(copyFrom(primary.sql.copySeenIn)));
    }
    await primary.client.query(primary.sql.analyzeSeen);
    const { missingWhere } = primary.sql;
    if (this.options.dryRun) {
      const { rows } = await primary.client.query<{ n: number }>(`SELECT count(*)::int AS n FROM imagery t WHERE ${missingWhere}`, [this.options.source]);
      return rows[0].n;
    }
    const result = await primary.client.query(`DELETE FROM imagery t WHERE ${missingWhere}`, [this.options.source]);
    return result.rowCount ?? 0;
  }

  // Fresh column statistics after a change: the planner and search's broad-word test read them, and
  // autovacuum may take minutes to notice (the built-in database has none).
  async analyze(): Promise<void> {
    if (!this.options.dryRun) await this.writers[0].client.query('ANALYZE imagery');
  }

  // Ends the connections; on PostgreSQL the lock and the tables go with them, on the built-in database
  // (one lasting session) they are released here.
  async close(): Promise<void> {
    await Promise.all(
      this.writers.map(async ({ client, sql }, i) => {
        if (this.builtIn) {
          await client.query(sql.drop).catch(() => undefined);
          if (i === 0 && this.options.source !== null && !this.options.dryRun) {
            await client.query('SELECT pg_advisory_unlock(hashtext($1), hashtext($2))', [IMPORT_LOCK_CLASS, this.options.source]).catch(() => undefined);
          }
        }
        await client.end().catch(() => undefined);
      }),
    );
  }

  private acquire(): Promise<Writer> {
    const writer = this.idle.pop();
    return writer ? Promise.resolve(writer) : new Promise((resolve) => this.waiting.push(resolve));
  }

  private release(writer: Writer): void {
    const next = this.waiting.shift();
    if (next) next(writer);
    else this.idle.push(writer);
  }
}

// A batch as one array per staging column, for INSERT ... SELECT FROM unnest(...).
function columnArrays(records: ImageryRecord[]): unknown[] {
  return [
    records.map((r) => r.id),
    records.map((r) => r.address),
    records.map((r) => r.capturedAt),
    records.map((r) => r.heading),
    records.map((r) => r.interactive),
    records.map((r) => r.imageUrl),
    records.map((r) => r.lon),
    records.map((r) => r.lat),
  ];
}

@Injectable()
export class ImageryRepository {
  constructor(
    private readonly prisma: PrismaService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async openImportSession(options: ImportSessionOptions): Promise<ImageryImportSession> {
    const count = Math.max(1, Math.trunc(options.connections ?? 1));
    const clients = await Promise.allSettled(Array.from({ length: count }, () => this.connect('lis-import')));
    const failed = clients.find((c): c is PromiseRejectedResult => c.status === 'rejected');
    const opened = clients.flatMap((c) => (c.status === 'fulfilled' ? [c.value] : []));
    if (failed) {
      await Promise.all(opened.map((c) => c.end().catch(() => undefined)));
      throw failed.reason;
    }
    return ImageryImportSession.open(opened, options);
  }

  // Streams the catalogue (or one source) in id order, a page at a time, all pages from one snapshot.
  async *exportRecords(filter: ExportFilter = {}, pageSize = 2000): AsyncGenerator<ImageryRecord> {
    const client = await this.connect('lis-export');
    try {
      await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
      let after: string | null = null;
      for (;;) {
        const { rows }: { rows: ImageryRecord[] } = await client.query<ImageryRecord>(EXPORT_PAGE, [filter.source ?? null, after, pageSize]);
        yield* rows;
        if (rows.length < pageSize) break;
        after = rows[rows.length - 1].id;
      }
      await client.query('COMMIT');
    } finally {
      await client.end().catch(() => undefined);
    }
  }

  // Full records for ids, in the order given (ids not found are left out).
  async findByIds(ids: string[]): Promise<ImageryRecord[]> {
    if (ids.length === 0) return [];
    const rows = await this.prisma.$queryRaw<ImageryRecord[]>(
      Prisma.sql`SELECT ${Prisma.raw(RECORD_COLUMNS)} FROM imagery WHERE id = ANY(${ids}::uuid[])`,
    );
    const byId = new Map(rows.map((r) => [r.id, r]));
    return ids.map((id) => byId.get(id)).filter((r): r is ImageryRecord => r !== undefined);
  }

  async findForDemoImage(id: string): Promise<{ address: string; capturedAt: string; heading: number } | null> {
    const rows = await this.prisma.$queryRaw<Array<{ address: string; capturedAt: string; heading: number }>>`
      SELECT address, to_char(captured_at, 'YYYY-MM-DD') AS "capturedAt", heading FROM imagery WHERE id = ${id}::uuid`;
    return rows[0] ?? null;
  }

  count(): Promise<number> {
    return this.prisma.imagery.count();
  }

  private async connect(applicationName: string): Promise<Client> {
    const client = new Client({
      connectionString: this.config.databaseUrl,
      application_name: applicationName,
      statement_timeout: Math.max(this.config.dbStatementTimeoutMs, BULK_STATEMENT_TIMEOUT_MS),
      connectionTimeoutMillis: 10_000,
    });
    // An idle connection dropped by the server must not crash the process; the next query reports it.
    client.on('error', () => undefined);
    await client.connect();
    return client;
  }
}
