import { Logger } from '@nestjs/common';
import { ConfigError, loadConfig } from '../config/app-config';
import { useCliLogger } from '../logging/cli-logger';
import { makeTemplate } from '../startup/make-built-in-template';
import { parseOptionsOrExit } from './cli-arguments';

// npm run built-in:template [-- --force]; `npm install` runs it (postinstall) after the build.
// Makes the built-in database a first `npm start` copies (startup/built-in-template.ts). It never fails an
// install: without a template the first start loads the data itself, as it always could.
const USAGE = `usage: npm run built-in:template [-- --force]
  makes the built-in database a first \`npm start\` copies (schema, world gazetteer, demo catalogue) in
  BUILT_IN_TEMPLATE; skipped when current (--force: made again), with DATABASE_URL set or BUILT_IN_TEMPLATE=off`;

async function main(): Promise<void> {
  useCliLogger();
  const { values } = parseOptionsOrExit({ options: { force: { type: 'boolean', default: false } } }, USAGE);
  const log = new Logger('Template');
  const force = values.force;
  const started = Date.now();
  try {
    const config = loadConfig();
    const outcome = await makeTemplate(config, log, { force });
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    if (outcome === 'made') log.log(`Built-in database template made in ${seconds} s (BUILT_IN_TEMPLATE=off skips it)`);
    if (outcome === 'fresh') log.log('Built-in database template is current');
    if (outcome === 'off') log.log('BUILT_IN_TEMPLATE=off or DATABASE_URL set: no built-in database template made');
  } catch (error) {
    const message = error instanceof ConfigError ? error.message : (error as Error).stack;
    log.warn(`No built-in database template (a first start loads the data itself): ${message}`);
  }
}

void main();
