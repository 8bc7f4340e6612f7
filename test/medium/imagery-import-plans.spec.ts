import { PrismaClient } from '@prisma/client';
import { Client } from 'pg';
import { EXPORT_PAGE, importSql } from '../../src/imagery/imagery.repository';
import { prismaClient, resetImagery } from '../helpers/test-app';

describe('imagery import SQL plans', () => {
  let client: Client;
  let prisma: PrismaClient;
  const sql = importSql({
    staging: 'imagery_import_staging',
    seen: 'imagery_import_seen',
    stored: 'imagery_import_stored',
    links: 'imagery_import_links',
    missing: 'imagery_import_missing',
  });

  beforeAll(async () => {
    await resetImagery();
    prisma = prismaClient();
    // 50,000 rows, so the planner prefers indexes where they pay.
    await prisma.$executeRawUnsafe(`
      INSERT INTO imagery (id, address, captured_at, heading, location, image_url, source)
      SELECT gen_random_uuid(), 'Street ' || g, date '2020-01-01' + g % 1000, g % 360, ST_SetSRID(ST_MakePoint(g % 180, g % 90), 4326),
             '/a.jpg', CASE WHEN g % 10 = 0 THEN 'small' ELSE 'big' END
      FROM generate_series(1, 50000) g`);
    await prisma.$executeRawUnsafe('ANALYZE imagery');
    client = new Client({ connectionString: process.env.DATABASE_URL });
    await client.connect();
    // The session tables as an import sees them: filled, never analyzed.
    await client.query(sql.createStaging.replace('ON COMMIT DELETE ROWS', ''));
    await client.query(sql.createSeen);
    await client.query(`INSERT INTO imagery_import_staging (id, address, address_origin, captured_at, heading, interactive, image_url, lon, lat)
      SELECT id, address, 'own', captured_at, heading, interactive, image_url, 1, 2 FROM imagery LIMIT 5000`);
    await client.query(`INSERT INTO imagery_import_seen SELECT id FROM imagery WHERE source = 'small' LIMIT 4000`);
    await client.query(sql.analyzeSeen); // deleteMissing analyzes it first
  });

  afterAll(async () => {
    await client.end();
    await prisma.$disconnect();
    await resetImagery();
  });

  const plan = async (sql: string, params: unknown[] = []) =>
    (await client.query(`EXPLAIN ${sql}`, params)).rows
      .map((r: { 'QUERY PLAN': string }) => r['QUERY PLAN'])
      .join('\n');

  it('the upsert probes unchanged rows by primary key, never scanning the catalogue', async () => {
    const text = await plan(sql.upsert, ['s']);
    expect(text).toContain('imagery_pkey');
    expect(text).not.toMatch(/Seq Scan on imagery /);
  });

  it('the dry-run classification probes by primary key', async () => {
    const text = await plan(sql.classify, ['s']);
    expect(text).toContain('imagery_pkey');
    expect(text).not.toMatch(/Seq Scan on imagery /);
  });

  it('--delete-missing finds a source through its index', async () => {
    const text = await plan(sql.deleteMissing, ['small']);
    expect(text).toContain('imagery_source_idx');
  });

  // A load into a catalogue that holds records: the statistics were taken before it, when few records
  // had a locality (here none) and its source had none; the staged batch is either new records or the
  // stored ones again.
  describe('a load into a catalogue that holds records, on statistics from before the load', () => {
    const nodes = (n: any): any[] => [n, ...(n.Plans ?? []).flatMap(nodes)];
    beforeAll(async () => {
      await prisma.$executeRawUnsafe(`UPDATE imagery SET locality_id = NULL`);
      await prisma.$executeRawUnsafe('ANALYZE imagery');
      await prisma.$executeRawUnsafe(
        `UPDATE imagery SET locality_id = gen_random_uuid(), source = CASE WHEN source = 'big' THEN 'fresh' ELSE source END`,
      );
    });

    it('--delete-missing probes the seen ids by their index for every record of the source', async () => {
      await client.query('TRUNCATE imagery_import_seen');
      await client.query(
        `INSERT INTO imagery_import_seen SELECT id FROM imagery WHERE source = 'fresh' ORDER BY id OFFSET 1000`,
      );
      await client.query(sql.indexSeen);
      await client.query(sql.analyzeSeen);
      const [row] = (await client.query(`EXPLAIN (ANALYZE, FORMAT JSON) ${sql.countMissing}`, ['fresh'])).rows;
      const all = nodes(row['QUERY PLAN'][0].Plan);
      const rescans = all.filter((n) => n['Node Type'] === 'Seq Scan' && n['Actual Loops'] > 1);
      expect(rescans.map((n) => n['Relation Name'])).toEqual([]);
      expect((await client.query(sql.countMissing, ['fresh'])).rows[0].n).toBe(1000);
    });

    const settle = async (staged: string) => {
      await client.query('BEGIN');
      try {
        await client.query('DELETE FROM imagery_import_staging');
        await client.query(staged);
        const [row] = (await client.query(`EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${sql.settle}`)).rows;
        return row['QUERY PLAN'][0];
      } finally {
        await client.query('ROLLBACK');
      }
    };
    it.each([
      [
        'new records',
        `SELECT gen_random_uuid(), 'x', 'own', date '2020-01-01', 0, false, '/a.jpg', 1, 2 FROM generate_series(1, 5000)`,
      ],
      [
        'the stored records again',
        `SELECT id, address, 'recovered', captured_at, heading, interactive, image_url, ST_X(location), ST_Y(location) FROM imagery LIMIT 5000`,
      ],
    ])('probes each stored row by primary key and updates the staged row by its ctid (%s)', async (_, rows) => {
      const explained = await settle(
        `INSERT INTO imagery_import_staging (id, address, address_origin, captured_at, heading, interactive, image_url, lon, lat) ${rows}`,
      );
      const all = nodes(explained.Plan);
      const indexes = all.filter((n) => n['Index Name']).map((n) => n['Index Name']);
      expect([...new Set(indexes)]).toEqual(['imagery_pkey']);
      expect(all.filter((n) => n['Node Type'] === 'Seq Scan' && n['Actual Loops'] > 1)).toEqual([]);
      // A probe and its heap page per staged row, not a scan of every linked record per row.
      expect(explained.Plan['Shared Hit Blocks'] + explained.Plan['Shared Read Blocks']).toBeLessThan(5000 * 10);
    });
  });

  it('the export walks the primary key in order, without sorting', async () => {
    const text = await plan(EXPORT_PAGE, [null, '00000000-0000-4000-8000-000000000000', 2000]);
    expect(text).toContain('imagery_pkey');
    expect(text).not.toContain('Sort');
  });
});
