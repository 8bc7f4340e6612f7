import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { INestApplicationContext, Logger } from '@nestjs/common';
import { ApiKeyService } from '../api-key/api-key.service';
import { ImageryImportService } from '../imagery/imagery-import.service';
import { ImageryRepository } from '../imagery/imagery.repository';
import { DEMO_SOURCE, demoFeatures } from '../seed/demo-dataset';

// First start of the built-in database: load the demo catalogue when the table is empty.
export async function loadDemoDataIfEmpty(ctx: INestApplicationContext, log: Logger): Promise<void> {
  if ((await ctx.get(ImageryRepository).count()) > 0) return;
  log.log('Loading the demo dataset (66,878 imagery records at real places), once...');
  const started = Date.now();
  const summary = await ctx.get(ImageryImportService).importFeatures(demoFeatures(), {
    source: DEMO_SOURCE,
    onProgress: (s) => {
      if (s.read % 10_000 < 1000) log.log(`  ${s.read.toLocaleString('en-US')} records loaded`);
    },
  });
  const seconds = (Date.now() - started) / 1000;
  log.log(`Demo dataset loaded: ${summary.inserted.toLocaleString('en-US')} records in ${seconds.toFixed(1)} s`);
}

// The built-in database's demo key lives in DATA_DIR so it can be shown on every start; it is a
// local demo credential, never a production key (production keys are only stored as hashes).
export async function ensureDemoKey(ctx: INestApplicationContext, dataDir: string, log: Logger): Promise<string | undefined> {
  const keys = ctx.get(ApiKeyService);
  const file = join(resolve(dataDir), 'demo-api-key');
  if (existsSync(file)) {
    const key = readFileSync(file, 'utf8').trim();
    const valid = await keys.authenticate(key).then(() => true, () => false);
    return valid ? key : undefined;
  }
  const { key } = await keys.create('demo');
  writeFileSync(file, `${key}\n`, { mode: 0o600 });
  log.log(`Created a demo API key (kept in ${file})`);
  return key;
}
