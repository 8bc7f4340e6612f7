import { toolLog, useCliLogger } from '../logging/cli-logger';
import { parseOptionsOrExit } from './cli-arguments';
import { loadConfig } from '../config/app-config';
import { EmbeddedDatabase, EmbeddedDatabaseError } from '../database/embedded-database';

// Serves the built-in database of DATA_DIR on a loopback port without the API, e.g. for psql
// or for tools that need a plain PostgreSQL URL. Prints the URL, then runs until stopped.
const USAGE = `usage: npm run db:serve [-- --port <n>]
  serves the built-in database of DATA_DIR on 127.0.0.1 (port 0 or unset: any free one), prints its
  postgresql:// URL and runs until stopped (Ctrl-C)`;

async function main(): Promise<void> {
  useCliLogger();
  const { values } = parseOptionsOrExit({ options: { port: { type: 'string' } } }, USAGE);
  const port = values.port === undefined ? 0 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new EmbeddedDatabaseError('--port must be 0..65535');
  const db = await EmbeddedDatabase.start(loadConfig().dataDir, { port });
  console.log(db.url);
  const stop = () => void db.stop().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((error) => {
  toolLog.error(error instanceof EmbeddedDatabaseError ? error.message : ((error as Error).stack ?? error));
  process.exit(1);
});
