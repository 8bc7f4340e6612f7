import { TEST_DB_ENV, withServer } from './test-database';

export default async function globalTeardown(): Promise<void> {
  const name = process.env[TEST_DB_ENV];
  if (name) await withServer((c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
}
