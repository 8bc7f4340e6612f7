import { renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Logger } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { Migrator } from '../database/migrator';
import { freshTemplate, serverBuild, TEMPLATE_STAMP, templateDir } from './built-in-template';
import { openDatabase } from './database-connection';
import { loadDemoDataIfEmpty } from './demo-setup';

// 'off': BUILT_IN_TEMPLATE=off, or DATABASE_URL is set (the built-in database is not used).
export type TemplateOutcome = 'made' | 'fresh' | 'off';

// Runs a first start's loading in a directory of its own beside the template, then puts it in place in
// one rename: an install killed part-way leaves no template that looks whole.
export async function makeTemplate(
  config: AppConfig,
  log: Logger,
  opts: { force?: boolean } = {},
): Promise<TemplateOutcome> {
  const dir = templateDir(config);
  if (!dir || config.databaseUrl) return 'off';
  if (!opts.force && freshTemplate(config)) return 'fresh';
  const build = serverBuild();
  if (!build) throw new Error('the server is not built (npm run build)');
  const work = `${dir}.making-${process.pid}`;
  rmSync(work, { recursive: true, force: true });
  try {
    const { config: dbConfig, embedded } = await openDatabase(
      { ...config, databaseUrl: undefined, dataDir: work, builtInTemplate: 'off' },
      'server',
      log,
    );
    try {
      await new Migrator(dbConfig.databaseUrl).migrate();
      await loadDemoDataIfEmpty(dbConfig, log);
    } catch (error) {
      await embedded!.stop();
      throw error;
    }
    await embedded!.stopWithoutSpareWal();
    writeFileSync(join(work, TEMPLATE_STAMP), `${build}\n`);
    rmSync(dir, { recursive: true, force: true });
    renameSync(work, dir);
    return 'made';
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
