import { DynamicModule, INestApplicationContext, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ApiKeyModule } from '../api-key/api-key.module';
import { AppConfig, ConfigError, loadConfig } from '../config/app-config';
import { DatabaseModule } from '../database/database.module';
import { Migrator } from '../database/migrator';
import { ImageryModule } from '../imagery/imagery.module';
import { SearchModule } from '../search/search.module';

// Command-line tools get the same services as the server, without HTTP.
@Module({})
class CliModule {
  static forRoot(config: AppConfig): DynamicModule {
    return { module: CliModule, imports: [DatabaseModule.forRoot(config), ApiKeyModule, ImageryModule, SearchModule] };
  }
}

export class UsageError extends Error {}

export async function runCli(task: (ctx: INestApplicationContext, config: AppConfig) => Promise<number | void>): Promise<void> {
  let ctx: INestApplicationContext | undefined;
  try {
    // Bulk work may legitimately run longer than an API request.
    const config = { ...loadConfig(), dbStatementTimeoutMs: 10 * 60_000 };
    await new Migrator(config.databaseUrl).migrate();
    ctx = await NestFactory.createApplicationContext(CliModule.forRoot(config), { logger: ['error', 'warn'] });
    process.exitCode = (await task(ctx, config)) ?? 0;
  } catch (error) {
    const known = error instanceof UsageError || error instanceof ConfigError || (error as any)?.code;
    console.error(known ? `error: ${(error as Error).message}` : error);
    process.exitCode = error instanceof UsageError ? 2 : 1;
  } finally {
    await ctx?.close();
  }
}
