import { createHash } from 'node:crypto';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
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

  it('counts the two-letter words of a catalogue stored before they were counted', async () => {
    const other = await createThrowawayDatabase();
    const dir = mkdtempSync(join(tmpdir(), 'lis-migrations-'));
    const client = new Client({ connectionString: other.url });
    try {
      const all = new Migrator(url).read().map((m) => m.name);
      const before = all.slice(0, all.indexOf('20261129100000_two_letter_words'));
      const source = join(__dirname, '..', '..', 'prisma', 'migrations');
      for (const name of before) cpSync(join(source, name), join(dir, name), { recursive: true });
      await new Migrator(other.url, dir).migrate();
      await client.connect();
      await client.query(`INSERT INTO imagery (id, address, captured_at, heading, image_url, location)
        SELECT gen_random_uuid(), a, '2020-01-01', 0, 'https://example.com/1.jpg', ST_SetSRID(ST_MakePoint(0, 0), 4326)
        FROM unnest(ARRAY['3 Calle El Paso, El Centro', '5 El Paso Street', 'Mt Vernon Road']) AS a`);
      const docs = async () =>
        Object.fromEntries(
          (await client.query('SELECT word, docs FROM imagery_words WHERE length(word) <= 4')).rows.map((r) => [
            r.word,
            r.docs,
          ]),
        );
      expect(await docs()).toEqual({ paso: 2, road: 1 });
      expect((await new Migrator(other.url).migrate()).applied).toEqual(all.slice(before.length));
      expect(await docs()).toEqual({ paso: 2, road: 1, el: 2, mt: 1 });
    } finally {
      await client.end().catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
      await other.drop();
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
