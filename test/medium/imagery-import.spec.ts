import { gzipSync } from 'node:zlib';
import { TestingModule } from '@nestjs/testing';
import { PrismaClient } from '@prisma/client';
import { ImageryImportService } from '../../src/imagery/imagery-import.service';
import { feature, resetImagery } from '../helpers/test-app';
import { CSV_HEADER, generatedRecord, toCsvRow, toFeature } from '../helpers/imagery-files';
import { importerTools, startImporter } from '../helpers/imagery-importer';

describe('imagery import: formats and idempotency', () => {
  let moduleRef: TestingModule;
  let importer: ImageryImportService;
  let prisma: PrismaClient;
  const { write, importFile, count, versions, removeFiles } = importerTools(() => ({ importer, prisma }));

  beforeAll(async () => {
    ({ moduleRef, importer, prisma } = await startImporter());
  });

  afterAll(async () => {
    await moduleRef.close();
    await prisma.$disconnect();
    removeFiles();
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
    const [row] = await prisma.$queryRaw<
      Array<{ heading: number; d: string; lon: number; lat: number; source: string }>
    >`
      SELECT heading, captured_at::text AS d, ST_X(location) AS lon, ST_Y(location) AS lat, source FROM imagery WHERE id = ${good.id}::uuid`;
    expect(row).toEqual({ heading: 273.1, d: '2015-09-10', lon: 9.52, lat: 47.14, source: 'test' });
  });

  it('streams a FeatureCollection and reports bad features by index', async () => {
    const features = [
      feature('Bahnhofstrasse 1, Schaan'),
      { type: 'Feature', geometry: null, properties: {} },
      feature('Bahnhofstrasse 2, Schaan'),
    ];
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
    const records = [
      generatedRecord(1),
      { ...generatedRecord(2), address: 'Quoted "Main, St", 1\nsecond line' },
      generatedRecord(3),
    ];
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
      expect({ path, ...(await importFile(path)) }).toMatchObject({
        path,
        read: 3,
        inserted: 0,
        updated: 0,
        unchanged: 3,
        rejected: 0,
      });
    }
    expect(await versions()).toEqual(before);
    const [row] = await prisma.$queryRaw<
      Array<{ address: string }>
    >`SELECT address FROM imagery WHERE id = ${records[1].id}::uuid`;
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
    // An update moves updated_at (it comes in with the row: Citus allows no now() in DO UPDATE SET).
    const updated = await versions();
    expect(updated.map((r, i) => r.updated_at > before[i].updated_at)).toEqual([true, true]);
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

  // Searches read a GIN index's whole pending list until it is merged; an import merges it at the end
  // instead of leaving it to autovacuum (pgstattuple's pgstatginindex shows what is pending).
  it('leaves nothing pending in the GIN indexes of the catalogue after an import', async () => {
    await prisma.$executeRawUnsafe('CREATE EXTENSION IF NOT EXISTS pgstattuple');
    try {
      await expectNothingPending();
    } finally {
      // A diagnostic of this test's only: the migrated schema (src/database/schema.sql) has none.
      await prisma.$executeRawUnsafe('DROP EXTENSION IF EXISTS pgstattuple');
    }
  });

  async function expectNothingPending(): Promise<void> {
    const pending = async () =>
      prisma.$queryRawUnsafe<Array<{ index: string; pending: number }>>(
        `SELECT c.relname::text AS index, (pgstatginindex(c.oid)).pending_tuples::int AS pending
         FROM pg_index x JOIN pg_class c ON c.oid = x.indexrelid JOIN pg_am a ON a.oid = c.relam
         WHERE x.indrelid = 'imagery'::regclass AND a.amname = 'gin' ORDER BY 1`,
      );
    const records = Array.from({ length: 40 }, (_, i) => generatedRecord(i));
    await prisma.$executeRawUnsafe(
      `INSERT INTO imagery (id, address, captured_at, heading, location, image_url)
       VALUES (gen_random_uuid(), 'Pending Lane 1, Vaduz', '2024-01-01', 0, ST_SetSRID(ST_MakePoint(9.52, 47.14), 4326), '/p.jpg')`,
    );
    // A plain insert leaves its entries pending (fastupdate, PostgreSQL's default for GIN).
    expect((await pending()).filter((p) => p.pending > 0).map((p) => p.index)).toEqual([
      'imagery_address_norm_trgm_idx',
      'imagery_address_tsv_idx',
    ]);
    const path = write('g.ndjson', records.map((r) => JSON.stringify(toFeature(r))).join('\n'));
    expect(await importFile(path)).toMatchObject({ inserted: 40 });
    expect(await pending()).toEqual([
      { index: 'imagery_address_norm_trgm_idx', pending: 0 },
      { index: 'imagery_address_tsv_idx', pending: 0 },
    ]);
  }
});
