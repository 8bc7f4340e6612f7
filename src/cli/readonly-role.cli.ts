import { ConfigError, loadConfig } from '../config/app-config';
import { toolLog, useCliLogger } from '../logging/cli-logger';
import { parseOptionsOrExit } from './cli-arguments';
import { Migrator } from '../database/migrator';
import { ensureReadonlyRole, READONLY_TABLES } from '../database/readonly-role';

// `npm run db:create-readonly-role`: the role and password come from DATABASE_READONLY_URL (a migration
// cannot know the password); it connects as DATABASE_URL, which needs CREATEROLE.
const USAGE = `usage: npm run db:create-readonly-role
  creates (or updates) the role of DATABASE_READONLY_URL, with its password, allowed to connect and to
  read the tables searches read, nothing else; connects as DATABASE_URL, which needs CREATEROLE`;

async function main(): Promise<void> {
  useCliLogger();
  parseOptionsOrExit({ options: {} }, USAGE);
  const config = loadConfig();
  if (!config.databaseReadonlyUrl) {
    throw new ConfigError('Set DATABASE_READONLY_URL (postgresql://<role>:<password>@host/db) to the role to create');
  }
  if (!config.databaseUrl) {
    throw new ConfigError('Set DATABASE_URL: read-only roles are for a PostgreSQL server, not the built-in database');
  }
  await new Migrator(config.databaseUrl).migrate();
  const r = await ensureReadonlyRole(config.databaseUrl, config.databaseReadonlyUrl);
  console.log(
    `${r.created ? 'Created' : 'Updated'} role ${r.role}: may connect to ${r.database} and only read ` +
      `${READONLY_TABLES.map((t) => `${r.schema}.${t}`).join(', ')}; its transactions default to read-only.`,
  );
}

main().catch((error) => {
  toolLog.error(error.message);
  process.exitCode = 1;
});
