import { readFileSync } from 'node:fs';
import { Client } from 'pg';
import { ensureReadonlyRole } from '../../src/database/readonly-role';
import { createTestReadonlyRole, dropTestReadonlyRole } from '../helpers/readonly-role';

// Least privilege: the role in DATABASE_READONLY_URL can read what the request path reads and nothing else.
describe('read-only database role', () => {
  let role: string;
  let url: string;
  let reader: Client;

  const denied = async (sql: string, code = '42501') => {
    await expect(reader.query(sql)).rejects.toMatchObject({ code });
  };

  beforeAll(async () => {
    ({ role, url } = await createTestReadonlyRole());
    reader = new Client({ connectionString: url });
    await reader.connect();
  });
  afterAll(async () => {
    await reader.end();
    await dropTestReadonlyRole(role);
  });

  it('connects as its own role and reads what search and key authentication need', async () => {
    expect((await reader.query('SELECT current_user AS u')).rows[0].u).toBe(role);
    await expect(reader.query('SELECT count(*) FROM imagery')).resolves.toBeDefined();
    await expect(
      reader.query('SELECT id, key_hash, revoked_at, rate_limit FROM api_keys LIMIT 1'),
    ).resolves.toBeDefined();
    await expect(reader.query("SELECT lis_normalize('Tübingen') AS n")).resolves.toMatchObject({
      rows: [{ n: 'tubingen' }],
    });
  });

  it('a role made before the place term lists existed reads them after the upgrade migration', async () => {
    const owner = new Client({ connectionString: process.env.DATABASE_URL });
    await owner.connect();
    try {
      const r = owner.escapeIdentifier(role);
      await owner.query(`REVOKE SELECT ON place_term_lists, place_term_ranks FROM ${r}`);
      await denied('SELECT count(*) FROM place_term_ranks');
      await owner.query(
        readFileSync('prisma/migrations/20261125110000_readonly_role_place_terms/migration.sql', 'utf8'),
      );
      await expect(reader.query('SELECT count(*) FROM place_term_ranks')).resolves.toBeDefined();
      await expect(reader.query('SELECT count(*) FROM place_term_lists')).resolves.toBeDefined();
    } finally {
      await owner.end();
    }
  });

  it('runs in read-only transactions by default', async () => {
    await denied(
      "INSERT INTO api_keys (id, name, prefix, key_hash) VALUES (gen_random_uuid(), 'x', 'x', 'x')",
      '25006',
    );
  });

  it('cannot write even when it turns read-only transactions off: the grants forbid it', async () => {
    await reader.query('SET default_transaction_read_only = off');
    try {
      await denied("INSERT INTO api_keys (id, name, prefix, key_hash) VALUES (gen_random_uuid(), 'x', 'x', 'x')");
      await denied('UPDATE api_keys SET revoked_at = NULL');
      await denied('UPDATE api_keys SET rate_limit = 100000');
      await denied('DELETE FROM imagery');
      await denied('TRUNCATE imagery');
      await denied('CREATE TABLE mine (id int)');
      await denied('ALTER TABLE imagery ADD COLUMN x int');
      await denied('DROP TABLE imagery');
      await denied('SELECT * FROM _prisma_migrations');
    } finally {
      await reader.query('RESET default_transaction_read_only');
    }
  });

  it('is idempotent, and refuses to demote the owner or a role that owns tables', async () => {
    await expect(ensureReadonlyRole(process.env.DATABASE_URL!, url)).resolves.toMatchObject({ role, created: false });
    await expect(ensureReadonlyRole(process.env.DATABASE_URL!, process.env.DATABASE_URL!)).rejects.toThrow(
      /another user/,
    );

    const owner = new Client({ connectionString: process.env.DATABASE_URL });
    await owner.connect();
    const other = `${role}_owner`;
    try {
      await owner.query(`CREATE ROLE ${other}`);
      await owner.query(`CREATE TABLE ${other}_table (id int)`);
      await owner.query(`ALTER TABLE ${other}_table OWNER TO ${other}`);
      const otherUrl = new URL(process.env.DATABASE_URL!);
      otherUrl.username = other;
      await expect(ensureReadonlyRole(process.env.DATABASE_URL!, otherUrl.toString())).rejects.toThrow(/owns tables/);
    } finally {
      await owner.query(`DROP TABLE IF EXISTS ${other}_table`);
      await owner.query(`DROP ROLE IF EXISTS ${other}`);
      await owner.end();
    }
  });
});
