import { Inject, Injectable, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient } from '@prisma/client';
import { APP_CONFIG, AppConfig, requireDatabaseUrl } from '../config/app-config';

// Prisma on the node-postgres driver adapter (no native query engine), connected with the app's lifecycle.
@Injectable()
export class PrismaService extends PrismaClient implements OnModuleInit, OnModuleDestroy {
  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    super({
      adapter: new PrismaPg({
        connectionString: requireDatabaseUrl(config),
        max: config.dbPoolSize,
        connectionTimeoutMillis: config.dbConnectionTimeoutMs,
        idleTimeoutMillis: 30_000,
        statement_timeout: config.dbStatementTimeoutMs,
        application_name: 'location-imagery-search',
      }),
    });
  }

  async onModuleInit(): Promise<void> {
    await this.$connect();
  }

  async onModuleDestroy(): Promise<void> {
    await this.$disconnect();
  }
}
