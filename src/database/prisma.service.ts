import { createHash } from 'node:crypto';
import { Inject, Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { PrismaPg } from '@prisma/adapter-pg';
import { Prisma, PrismaClient } from '@prisma/client';
import { Client, Pool } from 'pg';
import { APP_CONFIG, AppConfig, requireDatabaseUrl } from '../config/app-config';
import { describeDatabaseUrl } from '../config/replica-urls';
import { isDatabaseUnavailable, PG_TIMEOUT } from '../common/database-errors';
import { ReadRouter } from './read-router';
import { SESSION_OPTIONS } from './session-options';
import { imageryIsDistributed } from './citus-layout';
import { hearCheckedOutClients } from './checked-out-clients';

// Client-side limit on top of the server's statement_timeout: a connection that went silent (a cut
// network path sends no reset) would otherwise wait forever; the pool then discards that connection.
const QUERY_TIMEOUT_MARGIN_MS = 1000;

// Bulk statements (a batch upsert, the final delete) may legitimately outlast the API's statement
// timeout, above all while GIN indexes merge their pending lists; they get this bound instead.
export const BULK_STATEMENT_TIMEOUT_MS = 10 * 60_000;

// The pg Pool is created here rather than inside PrismaPg so its owner can observe it (metrics) and close it.
export function createPool(config: AppConfig, connectionString: string, applicationName: string): Pool {
  const pool = new Pool({
    connectionString,
    max: config.dbPoolSize,
    // Bounds both opening a connection and waiting for a free one in a busy pool.
    connectionTimeoutMillis: config.dbConnectTimeoutMs,
    idleTimeoutMillis: 30_000,
    statement_timeout: config.dbStatementTimeoutMs,
    query_timeout: config.dbStatementTimeoutMs + QUERY_TIMEOUT_MARGIN_MS,
    keepAlive: true,
    application_name: applicationName,
    options: SESSION_OPTIONS,
  });
  // An idle connection the server closed (restart, failover, admin): pg drops it from the pool; without
  // a listener the 'error' event would crash the process (PrismaPg's own listener goes at $disconnect).
  const logger = new Logger('Database');
  pool.on('error', (error) => logger.warn(`Idle ${applicationName} connection closed: ${error.message}`));
  // One closed while checked out: the same, heard for as long as it is out.
  hearCheckedOutClients(pool, (error) => logger.warn(`${applicationName} connection in use closed: ${error.message}`));
  return pool;
}

export function createAdapter(config: AppConfig, connectionString: string, applicationName: string): PrismaPg {
  return new PrismaPg(createPool(config, connectionString, applicationName));
}

// Prisma on the node-postgres driver adapter (no native query engine), connected with the app's lifecycle,
// for writes and tools (imports, keys, migrations). The request path (search, key lookup) runs its SQL
// with rawQuery through `reads`: the healthy replicas of DATABASE_REPLICA_URLS in turn, else `readerPool`
// (the read-only role when DATABASE_READONLY_URL is set, else the primary pool).
@Injectable()
export class PrismaService extends PrismaClient implements OnModuleInit, OnModuleDestroy {
  /** The pg pools by role: `primary` (behind this client) always, `readonly` with DATABASE_READONLY_URL. */
  readonly pools: { primary: Pool; readonly?: Pool };
  /** The request path's pool when no replica is in use. */
  readonly readerPool: Pool;
  /** Routes the request path's reads to replicas or readerPool. */
  readonly reads: ReadRouter;
  private readonly preparedStatements: boolean;
  /** The built-in database: every connection shares one session (so bulk work gains nothing from more). */
  readonly sharedSession: boolean;
  private readonly bestEffortMs: number;
  private readonly logger = new Logger('Database');
  private readonly bulk: { connectionString: string; statementTimeoutMs: number };
  /** imagery is a distributed table of a Citus coordinator (read at start): some statements take their Citus form. */
  imageryDistributed = false;
  private layoutRetry?: NodeJS.Timeout;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    const primary = createPool(config, requireDatabaseUrl(config), 'location-imagery-search');
    super({ adapter: new PrismaPg(primary) });
    const readonly = config.databaseReadonlyUrl
      ? createPool(config, config.databaseReadonlyUrl, 'location-imagery-search-read')
      : undefined;
    this.pools = { primary, readonly };
    this.readerPool = readonly ?? primary;
    const replicas = config.databaseReplicaUrls.map((url, i) => ({
      name: `replica-${i + 1}`,
      url,
      where: describeDatabaseUrl(url),
      pool: createPool(config, url, 'location-imagery-search-replica'),
    }));
    this.reads = new ReadRouter({ name: readonly ? 'readonly' : 'primary', pool: this.readerPool }, replicas, {
      maxLagSeconds: config.replicaMaxLagSeconds,
      checkIntervalMs: config.replicaCheckIntervalMs,
      checkTimeoutMs: config.dbConnectTimeoutMs,
      cancelOnDeadline: config.dbSharedSession !== true,
    });
    this.preparedStatements = config.dbPreparedStatements;
    this.sharedSession = config.dbSharedSession === true;
    this.bestEffortMs = Math.min(config.searchFallbackBudgetMs, config.dbStatementTimeoutMs);
    this.bulk = {
      connectionString: requireDatabaseUrl(config),
      statementTimeoutMs: Math.max(config.dbStatementTimeoutMs, BULK_STATEMENT_TIMEOUT_MS),
    };
  }

  // A connection of its own for bulk work (imports, exports): COPY, temporary tables and session locks
  // need the same connection throughout, which a pool does not promise. Raw pg: Prisma cannot COPY.
  async openBulkConnection(applicationName: string): Promise<Client> {
    const client = new Client({
      connectionString: this.bulk.connectionString,
      application_name: applicationName,
      statement_timeout: this.bulk.statementTimeoutMs,
      connectionTimeoutMillis: 10_000,
    });
    // An idle connection dropped by the server must not crash the process; the next query reports it.
    client.on('error', () => undefined);
    await client.connect();
    return client;
  }

  // One long statement on a bulk connection of its own (the lists' builds: past the API's timeout).
  async bulkQuery<T extends object>(applicationName: string, text: string, values: unknown[]): Promise<T[]> {
    const client = await this.openBulkConnection(applicationName);
    try {
      return (await client.query<T>(text, values)).rows;
    } finally {
      await client.end().catch(() => undefined);
    }
  }

  /** Every pg pool by name (metrics): primary, readonly, replica-1... */
  allPools(): Array<[string, Pool]> {
    const roles = Object.entries(this.pools).filter((e): e is [string, Pool] => e[1] !== undefined);
    return [...roles, ...this.reads.replicas.map((r): [string, Pool] => [r.name, r.pool])];
  }

  // The request path's raw SQL straight on the reader's pool: Prisma's $queryRaw cost a large share
  // of the server's CPU per search (docs/benchmarks.md#fig-raw-sql-pool) for no gain on hand-written
  // SQL. Named (prepared) per connection: after the first time a connection sees a statement, a
  // request sends only its values, and PostgreSQL skips parsing (plans stay per request:
  // force_custom_plan), which saves the database CPU on every search (docs/benchmarks.md#fig-prepared-statements).
  rawQuery<T>(sql: Prisma.Sql): Promise<T[]> {
    return this.send<T>(sql);
  }

  // A best-effort statement of the request path: null when it ran out of SEARCH_FALLBACK_BUDGET_MS
  // (capped at the statement timeout), so a search goes on without what it would have found instead
  // of failing. On the built-in database (one shared session, so no transaction of its own) it runs as
  // rawQuery does.
  async bestEffortQuery<T>(sql: Prisma.Sql): Promise<T[] | null> {
    if (this.sharedSession) return this.send<T>(sql);
    try {
      return await this.send<T>(sql, this.bestEffortMs);
    } catch (error) {
      if ((error as { code?: unknown }).code !== PG_TIMEOUT) throw error;
      this.logger.warn(`A best-effort search statement took over ${this.bestEffortMs} ms and was cancelled`);
      return null;
    }
  }

  private async send<T>(sql: Prisma.Sql, budgetMs?: number): Promise<T[]> {
    const text = sql.text;
    const name = this.preparedStatements ? statementName(text) : undefined;
    const { rows } = await this.reads.query({ name, text, values: sql.values as unknown[] }, budgetMs);
    return rows as T[];
  }

  async onModuleInit(): Promise<void> {
    await this.$connect();
    await this.reads.start();
    await this.readLayout();
  }

  // A database out of reach at start must not stop the service from starting (it serves 503 until the
  // database is back): the layout is then read again every LAYOUT_RETRY_MS, single-node forms meanwhile.
  private async readLayout(): Promise<void> {
    try {
      this.imageryDistributed = await imageryIsDistributed(this.pools.primary);
    } catch (error) {
      if (!isDatabaseUnavailable(error)) throw error;
      this.logger.warn(`Could not read whether imagery is distributed (the database is unavailable); trying again`);
      this.layoutRetry = setTimeout(() => void this.readLayout().catch(() => undefined), LAYOUT_RETRY_MS);
      this.layoutRetry.unref();
    }
  }

  async onModuleDestroy(): Promise<void> {
    clearTimeout(this.layoutRetry);
    this.reads.stop();
    await this.$disconnect();
    for (const [, pool] of this.allPools()) if (!pool.ended) await pool.end();
  }
}

const LAYOUT_RETRY_MS = 5_000;

// Same text, same name, on every connection and instance; a distinct text never shares one. The
// names of recent texts are remembered: a statement's text is the same for every request of its
// shape, and hashing it (a place search's text is long) per request showed in the server's CPU
// profile (docs/benchmarks.md#fig-statement-names).
const NAMES_REMEMBERED = 512;
const names = new Map<string, string>();
function statementName(text: string): string {
  let name = names.get(text);
  if (name === undefined) {
    name = `lis_${createHash('sha256').update(text).digest('base64url').slice(0, 32)}`;
    if (names.size >= NAMES_REMEMBERED) names.delete(names.keys().next().value!);
    names.set(text, name);
  }
  return name;
}
