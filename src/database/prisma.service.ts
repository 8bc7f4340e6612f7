import { Inject, Injectable, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
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
  }

  async onModuleInit(): Promise<void> {
    await this.$connect();
  }

  async onModuleDestroy(): Promise<void> {
    await this.$disconnect();
    if (!this.pool.ended) await this.pool.end();
  }
}
