import { Inject, Injectable, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient } from '@prisma/client';
import { APP_CONFIG, AppConfig, requireDatabaseUrl } from '../config/app-config';

// Client-side limit on top of the server's statement_timeout: a connection that went silent (a cut
// network path sends no reset) would otherwise wait forever; the pool then discards that connection.
const QUERY_TIMEOUT_MARGIN_MS = 1000;

export function createAdapter(config: AppConfig, connectionString: string, applicationName: string): PrismaPg {
  return new PrismaPg({
    connectionString,
    max: config.dbPoolSize,
    // Bounds both opening a connection and waiting for a free one in a busy pool.
    connectionTimeoutMillis: config.dbConnectTimeoutMs,
    idleTimeoutMillis: 30_000,
    statement_timeout: config.dbStatementTimeoutMs,
    query_timeout: config.dbStatementTimeoutMs + QUERY_TIMEOUT_MARGIN_MS,
    keepAlive: true,
    application_name: applicationName,
  });
}

// Prisma on the node-postgres driver adapter (no native query engine), connected with the app's lifecycle.
// `reader` serves the request path (search, key lookup): the read-only role when DATABASE_READONLY_URL
// is set, else this same client.
@Injectable()
export class PrismaService extends PrismaClient implements OnModuleInit, OnModuleDestroy {
  readonly reader: PrismaClient;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    super({ adapter: createAdapter(config, requireDatabaseUrl(config), 'location-imagery-search') });
    this.reader = config.databaseReadonlyUrl
      ? new PrismaClient({ adapter: createAdapter(config, config.databaseReadonlyUrl, 'location-imagery-search-read') })
      : this;
  }

  async onModuleInit(): Promise<void> {
    await this.$connect();
    if (this.reader !== this) await this.reader.$connect();
  }

  async onModuleDestroy(): Promise<void> {
    if (this.reader !== this) await this.reader.$disconnect();
    await this.$disconnect();
  }
}
