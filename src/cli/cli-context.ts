import { DynamicModule, INestApplicationContext, Logger, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ApiKeyModule } from '../api-key/api-key.module';
import { databaseTrouble } from '../common/database-errors';
import { AppConfig, ConfigError, loadConfig } from '../config/app-config';
import { DatabaseModule } from '../database/database.module';
import { EmbeddedDatabaseError } from '../database/embedded-database';
import { MigrationResult, Migrator } from '../database/migrator';
import { ImageryModule } from '../imagery/imagery.module';
import { toolLog, useCliLogger } from '../logging/cli-logger';
import { PhotosModule } from '../photos/photos.module';
import { PlacesModule } from '../places/places.module';
import { SearchModule } from '../search/search.module';
import { openDatabase } from '../startup/database-connection';
import { MetricsModule } from '../metrics/metrics.module';
import { HelpRequest, UsageError } from './cli-arguments';

// Command-line tools get the same services as the server, without HTTP.
@Module({})
class CliModule {
  static forRoot(config: AppConfig): DynamicModule {
    // MetricsModule: SearchModule's controller declares the search metrics interceptor.
    return {
      module: CliModule,
      imports: [
        DatabaseModule.forRoot(config),
        MetricsModule,
        ApiKeyModule,
        ImageryModule,
        PhotosModule,
        PlacesModule,
        SearchModule,
      ],
    };
  }
}

export { HelpRequest, UsageError } from './cli-arguments';

type CliTask<O> = (
  ctx: INestApplicationContext,
  options: O,
  config: AppConfig,
  migration: MigrationResult,
) => Promise<number | void>;

// parse reads the command line: a usage error is said at once, before any database is opened (a new
// built-in one would be created for it).
export async function runCli<O>(
  parse: () => O,
  task: CliTask<O>,
  /** What a first start of the built-in database copies for these options (see openDatabase). */
  firstStart?: (options: O) => 'demo' | 'schema',
): Promise<void> {
  // Logs on stderr: start-up lines (which database), then the tool's own lines, and every warning and error.
  const logger = useCliLogger();
  endQuietlyWhenStdoutCloses();
  let ctx: INestApplicationContext | undefined;
  let stopDatabase: (() => Promise<void>) | undefined;
  try {
    const options = parse();
    const { config, embedded } = await openDatabase(loadConfig(), 'cli', new Logger('Database'), firstStart?.(options));
    stopDatabase = embedded && (() => embedded.stop());
    // Bulk work may legitimately run longer than an API request.
    const cliConfig = { ...config, dbStatementTimeoutMs: 10 * 60_000 };
    const migration = await new Migrator(cliConfig.databaseUrl).migrate();
    logger.toolLinesOnly();
    ctx = await NestFactory.createApplicationContext(CliModule.forRoot(cliConfig), { logger });
    process.exitCode = (await task(ctx, options, cliConfig, migration)) ?? 0;
  } catch (error) {
    if (error instanceof HelpRequest) {
      console.log(error.message);
      process.exitCode = 0;
      return;
    }
    // A stack trace only for what may be a bug; a database that went away is said in one line.
    const message = (error as Error | null)?.message;
    if (databaseTrouble(error) === 'unavailable') {
      toolLog.error(`the database is unavailable (${message}); run the command again once it is back`);
    } else {
      const plain =
        error instanceof UsageError || error instanceof ConfigError || error instanceof EmbeddedDatabaseError;
      toolLog.error(plain || (error as { code?: unknown } | null)?.code ? message : ((error as Error)?.stack ?? error));
    }
    process.exitCode = error instanceof UsageError ? 2 : 1;
  } finally {
    await ctx?.close();
    await stopDatabase?.();
  }
}

// A reader that stops early (`| head -1`) closes the pipe: writes then fail with EPIPE, which is no
// error of the tool's, so it is not reported and the exit code stays 0 (as head expects). The export
// stops at its next write (export.cli.ts); the database is closed as usual on the way out. Unheard, the
// event would end the process with a stack trace.
function endQuietlyWhenStdoutCloses(): void {
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') return;
    toolLog.error(`standard output: ${error.message}`);
    process.exitCode = 1;
  });
}
