import { existsSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Logger } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { EMBEDDED_POOL_SIZE, EmbeddedDatabase } from '../database/embedded-database';
import { freshTemplate } from './built-in-template';

const EMBEDDED_CONNECTION_WAIT_MS = 30_000;

export interface DatabaseConnection {
  /** The configuration with the database URL and pool size the process will really use. */
  config: AppConfig & { databaseUrl: string };
  /** Set when this process runs the built-in database (and must stop it on exit). */
  embedded?: EmbeddedDatabase;
}

// DATABASE_URL wins; without it, the built-in database in DATA_DIR. A CLI started beside a running
// server connects to that server's database instead of opening the directory a second time.
export async function openDatabase(
  config: AppConfig,
  role: 'server' | 'cli',
  log: Logger,
  /** What a CLI's first start copies: the schema alone (default), or the server's (a photo import recovers addresses from its gazetteer). */
  cliTemplate: 'demo' | 'schema' = 'schema',
): Promise<DatabaseConnection> {
  if (config.databaseUrl) return { config: { ...config, databaseUrl: config.databaseUrl } };

  const running = role === 'cli' ? EmbeddedDatabase.serverInfo(config.dataDir) : undefined;
  if (running) {
    log.log(`Using the built-in database of the server running as pid ${running.pid}`);
    return {
      config: {
        ...config,
        databaseUrl: running.url,
        dbPoolSize: 1,
        dbPreparedStatements: false,
        dbSharedSession: true,
      },
    };
  }

  const started = Date.now();
  log.log(`Starting the built-in database in ${config.dataDir} (DATABASE_URL is not set)`);
  // A first start copies a database `npm install` made: the server's with the demo data, a CLI's with the
  // schema alone (it is about to load its own data) unless it asks for the server's.
  const template = isNew(config.dataDir) ? freshTemplate(config, role === 'server' ? 'demo' : cliTemplate) : undefined;
  // A CLI without a server beside it opens the database in its own process, kept lean (embedded-database.ts).
  const embedded = await EmbeddedDatabase.start(config.dataDir, { template, lean: role === 'cli' });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  log.log(
    template
      ? `Built-in database ready in ${seconds} s: a copy of the one \`npm install\` made (${template})`
      : `Built-in database ready in ${seconds} s`,
  );
  // PGlite answers one query at a time, so requests queue for a connection: waiting is expected
  // there, not a sign of an unreachable database. All its connections share one session, where
  // two connections preparing the same statement name would collide.
  const dbConnectTimeoutMs = Math.max(config.dbConnectTimeoutMs, EMBEDDED_CONNECTION_WAIT_MS);
  return {
    config: {
      ...config,
      databaseUrl: embedded.url,
      dbPoolSize: Math.min(config.dbPoolSize, EMBEDDED_POOL_SIZE),
      dbConnectTimeoutMs,
      dbPreparedStatements: false,
      dbSharedSession: true,
    },
    embedded,
  };
}

function isNew(dataDir: string): boolean {
  const pgdata = join(resolve(dataDir), 'pgdata');
  return !existsSync(pgdata) || readdirSync(pgdata).length === 0;
}
