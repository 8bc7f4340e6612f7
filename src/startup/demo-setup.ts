import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { DynamicModule, INestApplicationContext, Logger, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { AppConfig } from '../config/app-config';
import { DatabaseModule } from '../database/database.module';
import { ImageryModule } from '../imagery/imagery.module';
import { BULK_STATEMENT_TIMEOUT_MS, ImageryRepository } from '../imagery/imagery.repository';
import { PlacesModule } from '../places/places.module';
import { ApiKeyService } from '../api-key/api-key.service';
import { ImageryImportService } from '../imagery/imagery-import.service';
import { ImageryPlaceLinker } from '../imagery/address-recovery/imagery-place-linker.service';
import { GazetteerSeedService } from '../places/gazetteer/gazetteer-seed.service';
import { DEMO_SOURCE, demoFeatures } from '../seed/demo-dataset';

// The loading below runs statements of many seconds (linking 5,000 records a statement); the app's
// own connections stop a statement after DB_STATEMENT_TIMEOUT_MS (2 s), so it gets a context of its
// own with the bulk limit, as the CLIs do.
@Module({})
class DemoLoadModule {
  static forRoot(config: AppConfig): DynamicModule {
    return { module: DemoLoadModule, imports: [DatabaseModule.forRoot(config), ImageryModule, PlacesModule] };
  }
}

// First start of the built-in database: the world gazetteer, then the demo catalogue, each when
// it is not there yet, then the demo records' links to their places. A database from before the
// gazetteer gets it on its first start with this version, and its demo records then get their new
// addresses (the same ids, updated in place).
export async function loadDemoDataIfEmpty(config: AppConfig, log: Logger): Promise<void> {
  const bulkConfig = {
    ...config,
    dbStatementTimeoutMs: Math.max(config.dbStatementTimeoutMs, BULK_STATEMENT_TIMEOUT_MS),
  };
  // No logger option: it would replace the process's logger (main.ts sets it) for every context.
  const ctx = await NestFactory.createApplicationContext(DemoLoadModule.forRoot(bulkConfig));
  try {
    await loadDemoData(ctx, log);
  } finally {
    await ctx.close();
  }
}

async function loadDemoData(ctx: INestApplicationContext, log: Logger): Promise<void> {
  const gazetteerLoaded = await loadGazetteerIfEmpty(ctx, log);
  const hasImagery = !(await ctx.get(ImageryRepository).isEmpty());
  if (hasImagery && !gazetteerLoaded) return;
  log.log(
    hasImagery
      ? "Updating the demo dataset to name its places' regions, once..."
      : 'Loading the demo dataset (66,229 imagery records at real places), once...',
  );
  const started = Date.now();
  const summary = await ctx.get(ImageryImportService).importFeatures(demoFeatures(), {
    source: DEMO_SOURCE,
    onProgress: (s) => {
      if (s.read % 10_000 < 1000) log.log(`  ${s.read.toLocaleString('en-US')} records loaded`);
    },
  });
  const seconds = (Date.now() - started) / 1000;
  log.log(
    `Demo dataset loaded: ${(summary.inserted + summary.updated).toLocaleString('en-US')} records in ${seconds.toFixed(1)} s`,
  );
  // The import links each record to its locality, region and country as it stores it; records of
  // a catalogue loaded before the gazetteer are linked here (the rest are left alone).
  const linkStarted = Date.now();
  const links = await ctx.get(ImageryPlaceLinker).relinkAfterPlaceImport();
  log.log(
    `Demo records linked to their places as they were loaded; ${links.relinked.toLocaleString('en-US')} more re-linked in ${((Date.now() - linkStarted) / 1000).toFixed(1)} s`,
  );
}

async function loadGazetteerIfEmpty(ctx: INestApplicationContext, log: Logger): Promise<boolean> {
  const gazetteer = ctx.get(GazetteerSeedService);
  if ((await gazetteer.count()) > 0) return false;
  log.log('Loading the world gazetteer (countries, regions, towns, US ZIP codes), once...');
  const s = await gazetteer.seed({
    onProgress: (done, total) => {
      if (done % 20_000 < 2_000 || done === total)
        log.log(`  ${done.toLocaleString('en-US')} of ${total.toLocaleString('en-US')} places loaded`);
    },
  });
  log.log(`World gazetteer loaded: ${s.inserted.toLocaleString('en-US')} places in ${s.seconds.toFixed(1)} s`);
  return true;
}

// The built-in database's demo key lives in DATA_DIR so it can be shown on every start; it is a
// local demo credential, never a production key (production keys are only stored as hashes).
export async function ensureDemoKey(
  ctx: INestApplicationContext,
  dataDir: string,
  log: Logger,
): Promise<string | undefined> {
  const keys = ctx.get(ApiKeyService);
  const file = join(resolve(dataDir), 'demo-api-key');
  if (existsSync(file)) {
    const key = readFileSync(file, 'utf8').trim();
    const valid = await keys.authenticate(key).then(
      () => true,
      () => false,
    );
    return valid ? key : undefined;
  }
  const { key } = await keys.create('demo');
  writeFileSync(file, `${key}\n`, { mode: 0o600 });
  log.log(`Created a demo API key (kept in ${file})`);
  return key;
}
