import { createHash } from 'node:crypto';
import { Inject, Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { PrismaPg } from '@prisma/adapter-pg';
import { Prisma, PrismaClient } from '@prisma/client';
import { Pool } from 'pg';
import { APP_CONFIG, AppConfig, requireDatabaseUrl } from '../config/app-config';
import { SESSION_OPTIONS } from './session-options';

// Client-side limit on top of the server's statement_timeout: a connection that went silent (a cut
// network path sends no reset) would otherwise wait forever; the pool then discards that connection.
const QUERY_TIMEOUT_MARGIN_MS = 1000;

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
  return pool;
}

export function createAdapter(config: AppConfig, connectionString: string, applicationName: string): PrismaPg {
  return new PrismaPg(createPool(config, connectionString, applicationName));
}

// Prisma on the node-postgres driver adapter (no native query engine), connected with the app's lifecycle,
// for writes and tools. The request path (search, key lookup) runs its SQL with rawQuery on `readerPool`:
// the read-only role when DATABASE_READONLY_URL is set, else the primary pool.
@Injectable()
export class PrismaService extends PrismaClient implements OnModuleInit, OnModuleDestroy {
  /** The pg pools by role: `primary` (behind this client) always, `readonly` with DATABASE_READONLY_URL. */
  readonly pools: { primary: Pool; readonly?: Pool };
  /** The pool of the request path. */
  readonly readerPool: Pool;
  private readonly preparedStatements: boolean;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    const primary = createPool(config, requireDatabaseUrl(config), 'location-imagery-search');
    super({ adapter: new PrismaPg(primary) });
    const readonly = config.databaseReadonlyUrl
      ? createPool(config, config.databaseReadonlyUrl, 'location-imagery-search-read')
      : undefined;
    this.pools = { primary, readonly };
    this.readerPool = readonly ?? primary;
    this.preparedStatements = config.dbPreparedStatements;
  }

  // The request path's raw SQL straight on the reader's pool: Prisma's $queryRaw costs about a third
  // of the server's CPU per search (measured, docs/benchmarks.md) for no gain on hand-written SQL.
  // Named (prepared) per connection: after the first time a connection sees a statement, a request
  // sends only its values, and PostgreSQL skips parsing (plans stay per request: force_custom_plan).
  // Measured: a third less database CPU and a fifth more searches per second (docs/benchmarks.md).
  async rawQuery<T>(sql: Prisma.Sql): Promise<T[]> {
    const text = sql.text;
    const name = this.preparedStatements ? statementName(text) : undefined;
    const { rows } = await this.readerPool.query({ name, text, values: sql.values as unknown[] });
    return rows as T[];
  }

  async onModuleInit(): Promise<void> {
    await this.$connect();
  }

  async onModuleDestroy(): Promise<void> {
    await this.$disconnect();
    for (const pool of Object.values(this.pools)) if (pool && !pool.ended) await pool.end();
  }
}

// Same text, same name, on every connection and instance; a distinct text never shares one.
function statementName(text: string): string {
  return `lis_${createHash('sha256').update(text).digest('base64url').slice(0, 32)}`;
}
