import { cpSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Logger } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { Migrator } from '../database/migrator';
import { freshTemplate, SCHEMA_ONLY_PGDATA, serverBuild, TEMPLATE_STAMP, templateDir } from './built-in-template';
import { DatabaseConnection, openDatabase } from './database-connection';
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
  const open = () =>
    openDatabase({ ...config, databaseUrl: undefined, dataDir: work, builtInTemplate: 'off' }, 'server', log);
  try {
    await runThenStop(await open(), (url) => new Migrator(url).migrate());
    // The schema alone, for a CLI run on a new directory (it is about to load its own data).
    cpSync(join(work, 'pgdata'), join(work, SCHEMA_ONLY_PGDATA), { recursive: true });
    await runThenStop(await open(), (_url, dbConfig) => loadDemoDataIfEmpty(dbConfig, log));
    writeFileSync(join(work, TEMPLATE_STAMP), `${build}\n`);
    rmSync(dir, { recursive: true, force: true });
    renameSync(work, dir);
    return 'made';
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

async function runThenStop(
  { config, embedded }: DatabaseConnection,
  work: (url: string, config: DatabaseConnection['config']) => Promise<unknown>,
): Promise<void> {
  try {
    await work(config.databaseUrl, config);
  } catch (error) {
    await embedded!.stop();
    throw error;
  }
  await embedded!.stopWithoutSpareWal();
}
