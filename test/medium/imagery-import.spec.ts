import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { Test, TestingModule } from '@nestjs/testing';
import { PrismaClient } from '@prisma/client';
import { Client } from 'pg';
import { DatabaseModule } from '../../src/database/database.module';
import { formatFromPath, openInput, readFeatures } from '../../src/imagery/feature-reader';
import { ImageryImportService, ImportOptions } from '../../src/imagery/imagery-import.service';
import { ImageryModule } from '../../src/imagery/imagery.module';
import { EXPORT_PAGE, ImageryRepository, importSql } from '../../src/imagery/imagery.repository';
import { feature, prismaClient, resetImagery, testConfig } from '../helpers/test-app';
import { currentKind } from '../setup/test-database';
import { CSV_HEADER, generatedRecord, toCsvRow, toFeature } from '../helpers/imagery-files';

describe('imagery import', () => {
  let moduleRef: TestingModule;
  let importer: ImageryImportService;
  let prisma: PrismaClient;
  const dir = mkdtempSync(join(tmpdir(), 'lis-import-'));

  const write = (name: string, content: string | Buffer) => {
    const path = join(dir, name);
    writeFileSync(path, content);
    return path;
  };
  const importFile = async (path: string, options: ImportOptions = {}) =>
    importer.importFeatures(readFeatures((await openInput(path)).stream, formatFromPath(path)!), { source: 'test', ...options });
  const count = (source?: string) => prisma.imagery.count(source ? { where: { source } } : undefined);
  // Row versions: a rewrite (or even a row lock) shows up in xmin/xmax.
  const versions = () => prisma.$queryRaw<Array<{ id: string; xmin: string; xmax: string; updated_at: Date }>>`
    SELECT id::text, xmin::text, xmax::text, updated_at FROM imagery ORDER BY id`;

  beforeAll(async () => {
    await resetImagery();
    moduleRef = await Test.createTestingModule({ imports: [DatabaseModule.forRoot(testConfig()), ImageryModule] }).compile();
    await moduleRef.init();
    importer = moduleRef.get(ImageryImportService);
    prisma = prismaClient();
  });

  afterAll(async () => {
    await moduleRef.close();
    await prisma.$disconnect();
    rmSync(dir, { recursive: true, force: true });
  });

  beforeEach(() => resetImagery());

  it('imports NDJSON with RS separators, a BOM and blank lines, and reports bad lines by number', async () => {
    const good = feature('Kirchstrasse 1, Vaduz', { heading: 273.1, captured_at: '2015-09-10T08:00:00Z' });
    const path = write(
      'a.ndjson',
      [
        '\uFEFF' + JSON.stringify(good),
        '',
        '\u001e' + JSON.stringify(feature('Kirchstrasse 2, Vaduz')),
        '{"type": "Feature", oops',
        JSON.stringify(feature('Kirchstrasse 3, Vaduz', { heading: 360 })),
      ].join('\n'),
    );
    const summary = await importFile(path);
    expect(summary).toMatchObject({ read: 4, inserted: 2, updated: 0, unchanged: 0, rejected: 2, outcome: 'complete' });
    expect(summary.rejections).toEqual([
      { position: 4, field: '(record)', reason: 'malformed JSON' },
      { position: 5, field: 'heading', reason: 'must be at least 0 and less than 360' },
    ]);
    const [row] = await prisma.$queryRaw<Array<{ heading: number; d: string; lon: number; lat: number; source: string }>>`
      SELECT heading, captured_at::text AS d, ST_X(location) AS lon, ST_Y(location) AS lat, source FROM imagery WHERE id = ${good.id}::uuid`;
    expect(row).toEqual({ heading: 273.1, d: '2015-09-10', lon: 9.52, lat: 47.14, source: 'test' });
  });

  it('streams a FeatureCollection and reports bad features by index', async () => {
    const features = [feature('Bahnhofstrasse 1, Schaan'), { type: 'Feature', geometry: null, properties: {} }, feature('Bahnhofstrasse 2, Schaan')];
    const summary = await importFile(write('b.geojson', JSON.stringify({ type: 'FeatureCollection', features })));
    expect(summary).toMatchObject({ read: 3, inserted: 2, rejected: 1 });
    expect(summary.rejections[0]).toMatchObject({ position: 1, field: 'geometry' });
  });

  it('ends with an input error on a FeatureCollection that is not valid JSON, keeping what it read', async () => {
    const text = `{"type":"FeatureCollection","features":[${JSON.stringify(feature('Valid 1'))},{"type":`;
    const summary = await importFile(write('c.geojson', text));
    expect(summary.outcome).toBe('input-error');
    expect(summary.inputError).toMatch(/not valid JSON/);
    expect(await count()).toBe(summary.inserted);
  });

  it('imports the same records identically from every format, gzipped or not', async () => {
    const records = [generatedRecord(1), { ...generatedRecord(2), address: 'Quoted "Main, St", 1\nsecond line' }, generatedRecord(3)];
    const ndjson = records.map((r) => JSON.stringify(toFeature(r))).join('\n');
    const files = [
      write('f.ndjson', ndjson),
      write('f.geojsons', records.map((r) => `\u001e${JSON.stringify(toFeature(r), null, 2)}\n`).join('')),
      write('f.geojson.gz', gzipSync(JSON.stringify({ type: 'FeatureCollection', features: records.map(toFeature) }))),
      write('f.csv', '\uFEFF' + [CSV_HEADER, ...records.map(toCsvRow)].join('\r\n')),
      write('f.csv.gz', gzipSync([CSV_HEADER, ...records.map(toCsvRow)].join('\n'))),
    ];
    expect(await importFile(files[0])).toMatchObject({ read: 3, inserted: 3, rejected: 0 });
    const before = await versions();
    for (const path of files) {
      expect({ path, ...(await importFile(path)) }).toMatchObject({ path, read: 3, inserted: 0, updated: 0, unchanged: 3, rejected: 0 });
    }
    expect(await versions()).toEqual(before);
    const [row] = await prisma.$queryRaw<Array<{ address: string }>>`SELECT address FROM imagery WHERE id = ${records[1].id}::uuid`;
    expect(row.address).toBe('Quoted "Main, St", 1\nsecond line');
  });

  it('is idempotent: re-importing rewrites nothing, not even a row lock; a changed record is updated', async () => {
    const a = feature('Poststrasse 1, Eschen');
    const b = feature('Poststrasse 2, Eschen');
    const path = write('d.ndjson', [a, b].map((f) => JSON.stringify(f)).join('\n'));
    expect(await importFile(path)).toMatchObject({ inserted: 2, updated: 0, unchanged: 0 });
    const before = await versions();
    expect(await importFile(path)).toMatchObject({ inserted: 0, updated: 0, unchanged: 2 });
    const after = await versions();
    expect(after).toEqual(before);
    expect(after.every((r) => r.xmax === '0')).toBe(true);

    const changed = { ...b, properties: { ...b.properties, heading: 12.5 } };
    const moved = { ...a, geometry: { type: 'Point', coordinates: [9.52, 47.1400000001] } };
    const path2 = write('e.ndjson', [moved, changed].map((f) => JSON.stringify(f)).join('\n'));
    expect(await importFile(path2)).toMatchObject({ inserted: 0, updated: 2, unchanged: 0 });
    expect(await importFile(path2, { source: 'other' })).toMatchObject({ updated: 2 }); // the source is part of a record
    expect(await count()).toBe(2);
  });

  it('keeps features without an id idempotent through content-derived ids', async () => {
    const f: any = feature('Zollstrasse 7, Schaanwald');
    delete f.id;
    const path = write('f.ndjson', JSON.stringify(f) + '\n' + JSON.stringify(f));
    expect(await importFile(path)).toMatchObject({ read: 2, inserted: 1, unchanged: 1 });
    expect(await importFile(path)).toMatchObject({ inserted: 0, unchanged: 2 });
    expect(await count()).toBe(1);
  });

  it('rejects every kind of bad record with its own reason and loads the valid ones', async () => {
    const ok = (i: number) => generatedRecord(100 + i);
    const rows = [
      CSV_HEADER,
      toCsvRow(ok(0)),
      toCsvRow({ ...ok(1), lon: 180.5 }),
      toCsvRow({ ...ok(2), lat: -91 }),
      toCsvRow({ ...ok(3), captured_at: '2021-02-30' }),
      toCsvRow({ ...ok(4), captured_at: 'last tuesday' }),
      toCsvRow({ ...ok(5), heading: 360 }),
      toCsvRow({ ...ok(6), heading: -1 }),
      toCsvRow({ ...ok(7), image_url: 'ftp://example.com/a.jpg' }),
      toCsvRow({ ...ok(8), image_url: 'javascript:alert(1)' }),
      toCsvRow({ ...ok(9), address: '' }),
      toCsvRow({ ...ok(10), heading: 'north' as unknown as number }),
      toCsvRow({ ...ok(11), interactive: 'yes' as unknown as boolean }),
      toCsvRow({ ...ok(12), id: 'not-a-uuid' }),
      '"unterminated,but,closed"',
      toCsvRow(ok(13)),
    ];
    const summary = await importFile(write('bad.csv', rows.join('\n')));
    expect(summary.rejections.map((r) => [r.position, r.field])).toEqual([
      [3, 'lon'],
      [4, 'lat'],
      [5, 'captured_at'],
      [6, 'captured_at'],
      [7, 'heading'],
      [8, 'heading'],
      [9, 'image_url'],
      [10, 'image_url'],
      [11, 'address'],
      [12, 'heading'],
      [13, 'interactive'],
      [14, 'id'],
      [15, '(record)'],
    ]);
    expect(new Set(summary.rejections.map((r) => r.reason)).size).toBe(summary.rejections.length - 2); // the two heading and two image_url cases share a rule
    expect(summary).toMatchObject({ read: 15, inserted: 2, rejected: 13 });
    expect(await count()).toBe(2);
  });

  it('--delete-missing removes only records of that source that the input no longer has', async () => {
    const keep = [feature('Keep 1'), feature('Keep 2'), feature('Keep 3')];
    const drop = feature('Dropped');
    await importFile(write('all.ndjson', [...keep, drop].map((f) => JSON.stringify(f)).join('\n')), { source: 'nightly' });
    await importFile(write('other.ndjson', JSON.stringify(feature('Other source'))), { source: 'manual' });
    const trimmed = write('trimmed.ndjson', keep.map((f) => JSON.stringify(f)).join('\n'));

    const dry = await importFile(trimmed, { source: 'nightly', deleteMissing: true, dryRun: true });
    expect(dry).toMatchObject({ dryRun: true, unchanged: 3, deleted: 1 });
    expect(await count()).toBe(5);

    expect(await importFile(trimmed, { source: 'nightly', deleteMissing: true, batchSize: 2 })).toMatchObject({ unchanged: 3, deleted: 1 });
    expect(await count('nightly')).toBe(3);
    expect(await count('manual')).toBe(1);
    expect(await prisma.imagery.count({ where: { id: drop.id } })).toBe(0);
  });

  it('--delete-missing deletes nothing when the input breaks off or too much is rejected', async () => {
    const features = [feature('One'), feature('Two'), feature('Three')];
    await importFile(write('three.ndjson', features.map((f) => JSON.stringify(f)).join('\n')), { source: 'nightly' });

    const truncated = gzipSync(JSON.stringify(features[0]) + '\n' + 'x'.repeat(50_000)).subarray(0, 200);
    const broken = await importFile(write('broken.ndjson.gz', truncated), { source: 'nightly', deleteMissing: true });
    expect(broken).toMatchObject({ outcome: 'input-error', deleted: 0, deletionSkipped: 'the input could not be read to its end' });

    const rejected = await importFile(write('rejects.ndjson', `${JSON.stringify(features[0])}\n{oops\n`), { source: 'nightly', deleteMissing: true });
    expect(rejected).toMatchObject({ rejected: 1, deleted: 0, deletionSkipped: expect.stringMatching(/rejected/) });
    expect(await count('nightly')).toBe(3);
  });

  it('a dry run counts what would change and changes nothing', async () => {
    const a = feature('Dry 1');
    await importFile(write('dry1.ndjson', JSON.stringify(a)));
    const before = await versions();
    const b = feature('Dry 2');
    const changed = { ...a, properties: { ...a.properties, address: 'Dry 1 changed' } };
    const summary = await importFile(write('dry2.ndjson', [changed, b, '{bad'].map((f) => (typeof f === 'string' ? f : JSON.stringify(f))).join('\n')), {
      dryRun: true,
    });
    expect(summary).toMatchObject({ dryRun: true, read: 3, inserted: 1, updated: 1, unchanged: 0, rejected: 1 });
    expect(await versions()).toEqual(before);
  });

  it('stages batches with array parameters where COPY is unavailable (as on the built-in database), with the same results', async () => {
    const repo = moduleRef.get(ImageryRepository);
    const tricky = { ...generatedRecord(42), address: 'Tab\there, back\\slash, new\nline, "quotes", Ünïcødé ☃' };
    const record = { id: tricky.id, address: tricky.address, capturedAt: tricky.captured_at, heading: tricky.heading, interactive: tricky.interactive, imageUrl: tricky.image_url, lon: tricky.lon, lat: tricky.lat };
    for (const copy of [false, true]) {
      await resetImagery();
      const session = await repo.openImportSession({ source: 'arrays', dryRun: false, trackSeen: true, copy });
      try {
        expect(await session.writeBatch([record])).toEqual({ inserted: 1, updated: 0, unchanged: 0 });
        expect(await session.writeBatch([record])).toEqual({ inserted: 0, updated: 0, unchanged: 1 });
        expect(await session.deleteMissing()).toBe(0);
      } finally {
        await session.close();
      }
      const [row] = await prisma.$queryRaw<Array<{ address: string; lon: number }>>`SELECT address, ST_X(location) AS lon FROM imagery WHERE id = ${record.id}::uuid`;
      expect({ copy, ...row }).toEqual({ copy, address: tricky.address, lon: tricky.lon });
    }
  });

  it('refuses a second import of the same source while one runs (on a PostgreSQL server)', async () => {
    const repo = moduleRef.get(ImageryRepository);
    const first = await repo.openImportSession({ source: 'busy', dryRun: false, trackSeen: false });
    const second = () => importFile(write('busy.ndjson', JSON.stringify(feature('x'))), { source: 'busy' });
    try {
      if (currentKind() === 'server') {
        await expect(second()).rejects.toThrow(/another import of source "busy"/);
      } else {
        // The built-in database serves every connection from one session, where the guard's advisory
        // lock is re-entrant: documented as not applying there (README, import).
        expect(await second()).toMatchObject({ inserted: 1 });
      }
      // Other sources are not held up.
      expect(await importFile(write('free.ndjson', JSON.stringify(feature('y'))), { source: 'free' })).toMatchObject({ inserted: 1 });
    } finally {
      await first.close();
    }
    expect(await importFile(write('busy2.ndjson', JSON.stringify(feature('z'))), { source: 'busy' })).toMatchObject({ inserted: 1 });
  });
});

describe('imagery import SQL plans', () => {
  let client: Client;
  let prisma: PrismaClient;
  const sql = importSql({ staging: 'imagery_import_staging', seen: 'imagery_import_seen' });

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
    await client.query(`INSERT INTO imagery_import_staging SELECT id, address, captured_at, heading, interactive, image_url, 1, 2 FROM imagery LIMIT 5000`);
    await client.query(`INSERT INTO imagery_import_seen SELECT id FROM imagery WHERE source = 'small' LIMIT 4000`);
    await client.query(sql.analyzeSeen); // deleteMissing analyzes it first
  });

  afterAll(async () => {
    await client.end();
    await prisma.$disconnect();
    await resetImagery();
  });

  const plan = async (sql: string, params: unknown[] = []) =>
    (await client.query(`EXPLAIN ${sql}`, params)).rows.map((r: { 'QUERY PLAN': string }) => r['QUERY PLAN']).join('\n');

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
    const text = await plan(`DELETE FROM imagery t WHERE ${sql.missingWhere}`, ['small']);
    expect(text).toContain('imagery_source_idx');
  });

  it('the export walks the primary key in order, without sorting', async () => {
    const text = await plan(EXPORT_PAGE, [null, '00000000-0000-4000-8000-000000000000', 2000]);
    expect(text).toContain('imagery_pkey');
    expect(text).not.toContain('Sort');
  });
});
