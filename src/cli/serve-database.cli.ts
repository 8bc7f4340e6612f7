import { parseArgs } from 'node:util';
import { loadConfig } from '../config/app-config';
import { EmbeddedDatabase, EmbeddedDatabaseError } from '../database/embedded-database';

// Serves the built-in database of DATA_DIR on a loopback port without the API, e.g. for psql
// or for tools that need a plain PostgreSQL URL. Prints the URL, then runs until stopped.
async function main(): Promise<void> {
  const { values } = parseArgs({ options: { port: { type: 'string' } } });
  const port = values.port === undefined ? 0 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new EmbeddedDatabaseError('--port must be 0..65535');
  const db = await EmbeddedDatabase.start(loadConfig().dataDir, { port });
  console.log(db.url);
  const stop = () => void db.stop().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((error) => {
  console.error(error instanceof EmbeddedDatabaseError ? `error: ${error.message}` : error);
  process.exit(1);
});
