import { Migrator } from '../../src/database/migrator';
import { chooseKind, createThrowawayDatabase, KIND_ENV, ThrowawayDatabase } from './test-database';

declare global {
  var __lisTestDatabase: ThrowawayDatabase | undefined;
}

// One throwaway database per run, migrated like production, dropped in global-teardown.
export default async function globalSetup(): Promise<void> {
  const kind = await chooseKind();
  process.env[KIND_ENV] = kind;
  console.log(`\nTests run on ${kind === 'server' ? 'the PostgreSQL server' : 'the built-in PGlite database'}.`);
  const db = await createThrowawayDatabase(kind);
  globalThis.__lisTestDatabase = db;
  process.env.DATABASE_URL = db.url;
  await new Migrator(db.url).migrate();
}
