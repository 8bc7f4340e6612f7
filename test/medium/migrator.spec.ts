import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from 'pg';
import { Migrator } from '../../src/database/migrator';
import { createThrowawayDatabase, ThrowawayDatabase } from '../setup/test-database';

describe('Migrator', () => {
  let db: ThrowawayDatabase;
  let url: string;

  beforeAll(async () => {
    db = await createThrowawayDatabase();
    url = db.url;
  });
  afterAll(() => db.drop());

  it('applies every migration once and records it the way prisma migrate does', async () => {
    const migrator = new Migrator(url);
    const names = migrator.read().map((m) => m.name);
    expect(names.length).toBeGreaterThan(0);

    expect((await migrator.migrate()).applied).toEqual(names);
    expect(await migrator.migrate()).toEqual({ applied: [], alreadyApplied: names.length });

    const client = new Client({ connectionString: url });
    await client.connect();
    try {
      const rows = (
        await client.query(
          'SELECT migration_name, checksum, finished_at, applied_steps_count FROM _prisma_migrations ORDER BY migration_name',
        )
      ).rows;
      const sql = readFileSync(join(__dirname, '..', '..', 'prisma', 'migrations', names[0], 'migration.sql'));
      expect(rows[0]).toMatchObject({
        migration_name: names[0],
        checksum: createHash('sha256').update(sql).digest('hex'),
        applied_steps_count: 1,
      });
      expect(rows[0].finished_at).toBeInstanceOf(Date);
      const ext = (
        await client.query(
          "SELECT extname FROM pg_extension WHERE extname IN ('postgis','pg_trgm','unaccent') ORDER BY 1",
        )
      ).rows;
      expect(ext.map((e) => e.extname)).toEqual(['pg_trgm', 'postgis', 'unaccent']);
    } finally {
      await client.end();
    }
  });

  it('runs safely when several instances start at once', async () => {
    const other = await createThrowawayDatabase();
    try {
      const results = await Promise.all([1, 2, 3].map(() => new Migrator(other.url).migrate()));
      expect(results.flatMap((r) => r.applied)).toHaveLength(new Migrator(url).read().length);
    } finally {
      await other.drop();
    }
  });
});
