import { Inject, Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient } from '@prisma/client';
import { Pool } from 'pg';
import { APP_CONFIG, AppConfig, requireDatabaseUrl } from '../config/app-config';

// Prisma on the node-postgres driver adapter (no native query engine), connected with the app's lifecycle.
@Injectable()
export class PrismaService extends PrismaClient implements OnModuleInit, OnModuleDestroy {
  // Created here rather than inside PrismaPg so the pool can be observed (metrics) and closed by its owner.
  readonly pool: Pool;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    const pool = new Pool({
      connectionString: requireDatabaseUrl(config),
      max: config.dbPoolSize,
      connectionTimeoutMillis: 2000,
      idleTimeoutMillis: 30_000,
      statement_timeout: config.dbStatementTimeoutMs,
      application_name: 'location-imagery-search',
    });
    super({ adapter: new PrismaPg(pool) });
    this.pool = pool;
    // An idle connection the server closed (restart, failover, admin): pg drops it from the pool; without
    // a listener the 'error' event would crash the process (PrismaPg's own listener goes at $disconnect).
    const logger = new Logger('Database');
    pool.on('error', (error) => logger.warn(`Idle database connection closed: ${error.message}`));
  }

  async onModuleInit(): Promise<void> {
    await this.$connect();
  }

  async onModuleDestroy(): Promise<void> {
    await this.$disconnect();
    if (!this.pool.ended) await this.pool.end();
  }
}
