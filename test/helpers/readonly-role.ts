import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { ensureReadonlyRole } from '../../src/database/readonly-role';

// Roles are global to the PostgreSQL server: a unique name per run, dropped again by the test.
export async function createTestReadonlyRole(): Promise<{ role: string; url: string }> {
  const role = `lis_ro_${process.pid}_${randomBytes(4).toString('hex')}`;
  const url = new URL(process.env.DATABASE_URL!);
  url.username = role;
  url.password = randomBytes(12).toString('base64url');
  await ensureReadonlyRole(process.env.DATABASE_URL!, url.toString());
  return { role, url: url.toString() };
}

export async function dropTestReadonlyRole(role: string): Promise<void> {
  const client = new Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  try {
    const r = client.escapeIdentifier(role);
    await client.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = $1', [role]);
    await client.query(`DROP OWNED BY ${r}`); // revokes its grants in this database and on it
    await client.query(`DROP ROLE IF EXISTS ${r}`);
  } finally {
    await client.end();
  }
}
