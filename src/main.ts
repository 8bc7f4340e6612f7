import { AddressInfo } from 'node:net';
import { INestApplication, Logger } from '@nestjs/common';
import { ApiKeyService } from './api-key/api-key.service';
import { createApp } from './app';
import { ConfigError, loadConfig } from './config/app-config';
import { EmbeddedDatabaseError } from './database/embedded-database';
import { Migrator } from './database/migrator';
import { ImageryRepository } from './imagery/imagery.repository';
import { RankedWordListsRepository } from './search-index/ranked-word-lists.repository';
import { installGracefulShutdown } from './lifecycle/graceful-shutdown';
import { createRootLogger, nestLoggerFor } from './logging/logging';
import { openDatabase } from './startup/database-connection';
import { ensureDemoKey, loadDemoDataIfEmpty } from './startup/demo-setup';
import { createFirstRunKey, emptyCatalogueMessage, firstRunKeyMessage, tryItLines } from './startup/getting-started';
import { warmUp } from './startup/warm-up';
import { WebPageService } from './web-page/web-page.service';
import { citusSummary } from './database/citus-layout';

async function main(): Promise<void> {
  const started = Date.now();
  const settings = loadConfig();
  const rootLogger = createRootLogger(settings);
  Logger.overrideLogger(nestLoggerFor(rootLogger));
  const log = new Logger('Startup');
  const { config, embedded } = await openDatabase(settings, 'server', log);

  const migrationStart = Date.now();
  const migrator = new Migrator(config.databaseUrl);
  if (embedded && (await migrator.pending()).length > 0) {
    log.log('Creating the schema (PostGIS takes a while to install in the built-in database)...');
  }
  const { applied, citus } = await migrator.migrate();
  if (applied.length > 0)
    log.log(`Applied migrations ${applied.join(', ')} in ${((Date.now() - migrationStart) / 1000).toFixed(1)} s`);
  if (citus) log.log(citusSummary(citus));

  const app = await createApp(config, { logger: rootLogger });
  await finishCutOffFirstLoad(app, log);
  if (config.bootstrapApiKey) {
    await app.get(ApiKeyService).register(config.bootstrapApiKey, 'bootstrap');
    log.log('Registered BOOTSTRAP_API_KEY');
  }
  let demoKey: string | undefined;
  let firstRunKey: string | undefined;
  if (embedded) {
    await loadDemoDataIfEmpty(config, log);
    demoKey = config.bootstrapApiKey ? undefined : await ensureDemoKey(app, config.dataDir, log);
    // The page is pre-filled with the generated demo key only; never with a real key.
    if (demoKey) app.get(WebPageService).offerDemoKey(demoKey);
  } else if (!config.bootstrapApiKey) {
    firstRunKey = await createFirstRunKey(app);
  }
  const emptyCatalogue = await emptyCatalogueMessage(app, config.commandHints);

  // SIGTERM/SIGINT: drain in-flight requests, close the app, then stop the built-in database.
  installGracefulShutdown(app, { timeoutMs: config.shutdownTimeoutMs, afterClose: async () => embedded?.stop() });

  // The first search after a start as fast as the second: what it would pay for, paid before listening.
  await warmUp(app, log);
  await app.listen(config.port, config.host);
  const { port } = app.getHttpServer().address() as AddressInfo;
  // The built-in database's page hands out its demo key: said where a reader looks for the address.
  const reach = embedded && config.host === '127.0.0.1' ? '; this machine only, HOST=0.0.0.0 exposes it' : '';
  log.log(`Listening on http://localhost:${port} (ready in ${((Date.now() - started) / 1000).toFixed(1)} s${reach})`);
  // Plain lines, not log records: a key and a search to paste are the first thing a new user wants.
  const base = config.publicUrl ?? `http://localhost:${port}`;
  const key = demoKey ?? (embedded ? config.bootstrapApiKey : undefined);
  if (key) console.log(`\n${tryItLines(key, base).join('\n')}\n`);
  if (firstRunKey) console.log(`\n${firstRunKeyMessage(firstRunKey, base, config.commandHints)}\n`);
  if (emptyCatalogue) console.log(`${emptyCatalogue}\n`);
}

// A first load killed part-way left the catalogue without its secondary indexes: built before the
// server listens, its ranked word lists after, in the background. A failure is logged, not fatal:
// searches stay correct without the indexes (slower), and the next import or start tries again.
async function finishCutOffFirstLoad(app: INestApplication, log: Logger): Promise<void> {
  const started = Date.now();
  try {
    if (!(await app.get(ImageryRepository).finishAbandonedFirstLoad())) return;
  } catch (error) {
    log.warn(
      `Could not finish a first load that was cut off (the next import or start tries again): ${(error as Error).message}`,
    );
    return;
  }
  log.log(
    `Finished a first load that was cut off: the catalogue's indexes built in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
  void app
    .get(RankedWordListsRepository)
    .refreshOrWhyNot()
    .then((why) =>
      why ? log.warn(`Ranked word lists not refreshed: ${why}`) : log.log('Ranked word lists refreshed'),
    );
}

main().catch((error) => {
  // Problems the user must fix are printed plainly, without a stack trace.
  const plain = error instanceof ConfigError || error instanceof EmbeddedDatabaseError;
  console.error(plain ? error.message : error);
  process.exit(1);
});
