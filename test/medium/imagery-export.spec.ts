import { createWriteStream, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { Test, TestingModule } from '@nestjs/testing';
import { PrismaClient } from '@prisma/client';
import { DatabaseModule } from '../../src/database/database.module';
import { readFeatures } from '../../src/imagery/formats/imagery-feature.reader';
import { IMPORT_FORMATS, ImportFormat, openInput } from '../../src/import-formats/import-input';
import { ImageryExportService } from '../../src/imagery/imagery-export.service';
import { ImageryRecord } from '../../src/imagery/imagery-feature';
import { ImageryImportService } from '../../src/imagery/imagery-import.service';
import { ImageryModule } from '../../src/imagery/imagery.module';
import { generatedRecord, writeImageryFile } from '../helpers/imagery-files';
import { prismaClient, resetImagery, testConfig } from '../helpers/test-app';

describe('imagery export', () => {
  let moduleRef: TestingModule;
  let importer: ImageryImportService;
  let exporter: ImageryExportService;
  let prisma: PrismaClient;
  const dir = mkdtempSync(join(tmpdir(), 'lis-export-'));

  const importFile = async (path: string, format: ImportFormat, source: string | null = null) =>
    importer.importFeatures(readFeatures((await openInput(path)).stream, format), { source });
  const exportTo = async (records: AsyncIterable<ImageryRecord>, name: string, format: ImportFormat, gzip = false) => {
    const path = join(dir, name);
    const result = await exporter.write(records, format, createWriteStream(path), gzip);
    return { path, ...result };
  };
  // Every stored column an import can set, exactly as stored.
  const snapshot = () => prisma.$queryRaw<unknown[]>`
    SELECT id, address, address_origin, place_id, locality_id, region_code, country_code, captured_at::text, heading,
           interactive, image_url, ST_AsText(location) AS location, source, xmin::text AS version
    FROM imagery ORDER BY id`;

  // Values that are easy to get subtly wrong on the way out and back in.
  const tricky: ImageryRecord[] = [
    {
      id: '10000000-0000-4000-8000-000000000001',
      address: 'Quotes "and", commas\nand a newline\r\nand CRLF',
      addressOrigin: 'own',
      source: 'trip, "one"',
      capturedAt: '2015-09-10',
      heading: 0,
      interactive: true,
      imageUrl: 'https://img.test/a?x=1&y="2"',
      lon: -180,
      lat: -90,
    },
    {
      id: '10000000-0000-4000-8000-000000000002',
      address: 'Tübinger Straße 12, 70178 Stuttgart ☃ \t tab',
      addressOrigin: 'own',
      source: null,
      capturedAt: '2024-02-29',
      heading: 359.99999999999994,
      interactive: false,
      imageUrl: '/relative/path%20encoded.jpg',
      lon: 9.1716206123456789,
      lat: 48.76894361234567,
    },
    {
      id: '10000000-0000-4000-8000-000000000003',
      address: '\\backslash\\ and trailing comma,',
      addressOrigin: 'own',
      source: 'other',
      capturedAt: '1999-12-31',
      heading: 1e-7,
      interactive: false,
      imageUrl: 'http://x.test/' + 'p'.repeat(500),
      lon: 180,
      lat: 90,
    },
  ];

  beforeAll(async () => {
    moduleRef = await Test.createTestingModule({
      imports: [DatabaseModule.forRoot(testConfig()), ImageryModule],
    }).compile();
    await moduleRef.init();
    importer = moduleRef.get(ImageryImportService);
    exporter = moduleRef.get(ImageryExportService);
    prisma = prismaClient();
  });

  afterAll(async () => {
    await moduleRef.close();
    await prisma.$disconnect();
    rmSync(dir, { recursive: true, force: true });
  });

  beforeEach(() => resetImagery());

  it.each(IMPORT_FORMATS.flatMap((f) => [[f, false] as const, [f, true] as const]))(
    'round-trips every value (source included) through %s (gzip: %s): re-import changes nothing, a second export is identical',
    async (format, gzip) => {
      const seed = await exportTo(Readable.from(tricky), `seed.${format}`, format);
      expect(await importFile(seed.path, format)).toMatchObject({ inserted: 3, rejected: 0 });
      const before = await snapshot();

      const first = await exportTo(exporter.catalogue(), `first.${format}${gzip ? '.gz' : ''}`, format, gzip);
      expect(first.records).toBe(3);
      expect(await importFile(first.path, format)).toMatchObject({
        read: 3,
        inserted: 0,
        updated: 0,
        unchanged: 3,
        rejected: 0,
      });
      expect(await snapshot()).toEqual(before);

      const second = await exportTo(exporter.catalogue(), `second.${format}${gzip ? '.gz' : ''}`, format, gzip);
      expect(readFileSync(second.path)).toEqual(readFileSync(first.path));

      const back: ImageryRecord[] = [];
      for await (const r of exporter.catalogue()) back.push(r);
      expect(back).toEqual(tricky);
    },
  );

  it('pages through a large catalogue in id order, one source at a time', async () => {
    const file = join(dir, 'many.ndjson');
    await writeImageryFile(file, { records: 4500, format: 'ndjson' });
    await importFile(file, 'ndjson', 'many');
    await importFile((await exportTo(Readable.from(tricky), 'other.csv', 'csv')).path, 'csv', 'other');
    const ids: string[] = [];
    for await (const r of moduleRef.get(ImageryExportService).catalogue({ source: 'many' })) ids.push(r.id);
    expect(ids).toHaveLength(4500);
    expect(ids).toEqual([...ids].sort());
    expect(ids[4499]).toBe(generatedRecord(4499).id);
  });

  it('writes an empty catalogue as an empty but valid file', async () => {
    for (const format of IMPORT_FORMATS) {
      const out = await exportTo(exporter.catalogue(), `empty.${format}`, format);
      expect(out.records).toBe(0);
      expect(await importFile(out.path, format)).toMatchObject({ read: 0, rejected: 0, outcome: 'complete' });
    }
  });

  it('writes the matches of pages of ids in the order given, each once', async () => {
    await exportTo(Readable.from(tricky), 'seed2.ndjson', 'ndjson').then((s) => importFile(s.path, 'ndjson'));
    async function* pages() {
      yield [tricky[2].id, tricky[0].id];
      yield [tricky[0].id, '10000000-0000-4000-8000-0000000000ff', tricky[1].id];
    }
    const got: string[] = [];
    for await (const r of exporter.byIds(pages())) got.push(r.id);
    expect(got).toEqual([tricky[2].id, tricky[0].id, tricky[1].id]);
  });
});
