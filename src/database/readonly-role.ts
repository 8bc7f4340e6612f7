import { Client } from 'pg';

// What the request path reads: imagery, its word vocabulary and ranked word lists for search, places
// and their term lists for the places a query names, api_keys for key authentication, the map's tables
// for tiles. Nothing else.
export const READONLY_TABLES = [
  'imagery',
  'photos',
  'imagery_words',
  'imagery_word_lists',
  'imagery_word_ranks',
  'places',
  'place_term_lists',
  'place_term_ranks',
  'api_keys',
  'map_features',
  'coverage_cells',
  'coverage_sequences',
  'map_data_version',
] as const;

export interface ReadonlyRoleResult {
  role: string;
  database: string;
  schema: string;
  created: boolean;
}

// Creates (or brings back in line) the login role named in DATABASE_READONLY_URL, connected as the
// owner (DATABASE_URL). Idempotent. Raw SQL through node-postgres: roles and grants are DDL, which
// Prisma cannot express and which cannot take bound parameters, so names and the password are quoted.
export async function ensureReadonlyRole(ownerUrl: string, readonlyUrl: string): Promise<ReadonlyRoleResult> {
  const target = new URL(readonlyUrl);
  const role = decodeURIComponent(target.username);
  const password = target.password ? decodeURIComponent(target.password) : null;
  const schema = target.searchParams.get('schema') ?? 'public';
  if (!role) throw new Error('DATABASE_READONLY_URL must name a user, e.g. postgresql://lis_reader:secret@host/db');

  const client = new Client({ connectionString: ownerUrl, application_name: 'lis-readonly-role' });
  client.on('error', () => undefined); // a dropped connection: the statement in flight reports it
  await client.connect();
  try {
    const { rows } = await client.query<{ owner: string; database: string }>(
      'SELECT current_user AS owner, current_database() AS database',
    );
    const { owner, database } = rows[0];
    if (role === owner) throw new Error('DATABASE_READONLY_URL must use another user than DATABASE_URL');
    const existing = await client.query<{ rolsuper: boolean; owns: number }>(
      `SELECT r.rolsuper, (SELECT count(*)::int FROM pg_class c WHERE c.relowner = r.oid) AS owns
       FROM pg_roles r WHERE r.rolname = $1`,
      [role],
    );
    // Never strip an existing administrator or owner: a wrong URL must not demote the wrong account.
    if (existing.rows[0]?.rolsuper || (existing.rows[0]?.owns ?? 0) > 0) {
      throw new Error(`role ${role} is a superuser or owns tables; choose a dedicated user for DATABASE_READONLY_URL`);
    }
    const created = existing.rowCount === 0;
    const r = client.escapeIdentifier(role);
    const s = client.escapeIdentifier(schema);
    const tables = READONLY_TABLES.map((t) => `${s}.${client.escapeIdentifier(t)}`).join(', ');
    await client.query('BEGIN');
    try {
      await client.query(
        `${created ? 'CREATE' : 'ALTER'} ROLE ${r} LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS ` +
          `PASSWORD ${password === null ? 'NULL' : client.escapeLiteral(password)}`,
      );
      // Belt and braces: even a statement the grants would allow runs in a read-only transaction.
      await client.query(`ALTER ROLE ${r} SET default_transaction_read_only = on`);
      await client.query(`GRANT CONNECT ON DATABASE ${client.escapeIdentifier(database)} TO ${r}`);
      await client.query(`GRANT USAGE ON SCHEMA ${s} TO ${r}`);
      await client.query(`REVOKE ALL ON ALL TABLES IN SCHEMA ${s} FROM ${r}`);
      await client.query(`REVOKE ALL ON ALL SEQUENCES IN SCHEMA ${s} FROM ${r}`);
      await client.query(`GRANT SELECT ON ${tables} TO ${r}`);
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK');
      throw error;
    }
    return { role, database, schema, created };
  } finally {
    await client.end();
  }
}
