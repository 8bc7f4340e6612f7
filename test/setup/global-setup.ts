import { Migrator } from '../../src/database/migrator';
import { databaseUrl, TEST_DB_ENV, withServer } from './test-database';

// One throwaway database per test run, migrated like production, dropped in global-teardown.
export default async function globalSetup(): Promise<void> {
  const name = `lis_test_${process.pid}_${Date.now()}`;
  await withServer((c) => c.query(`CREATE DATABASE "${name}"`));
  process.env[TEST_DB_ENV] = name;
  process.env.DATABASE_URL = databaseUrl(name);
  await new Migrator(process.env.DATABASE_URL).migrate();
}
