import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Test, TestingModule } from '@nestjs/testing';
import { PrismaClient } from '@prisma/client';
import { DatabaseModule } from '../../src/database/database.module';
import { formatFromPath, openInput, readFeatures } from '../../src/imagery/feature-reader';
import { ImageryImportService } from '../../src/imagery/imagery-import.service';
import { ImageryModule } from '../../src/imagery/imagery.module';
import { feature, prismaClient, resetImagery, testConfig } from '../helpers/test-app';

describe('imagery import', () => {
  let moduleRef: TestingModule;
  let importer: ImageryImportService;
  let prisma: PrismaClient;
  const dir = mkdtempSync(join(tmpdir(), 'lis-import-'));

  const write = (name: string, content: string) => {
    const path = join(dir, name);
    writeFileSync(path, content);
    return path;
  };
  const importFile = async (path: string) =>
    importer.importFeatures(readFeatures((await openInput(path)).stream, formatFromPath(path)!), { source: 'test' });

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
    expect(summary).toMatchObject({ read: 4, inserted: 2, updated: 0, unchanged: 0, rejected: 2 });
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

  it('fails clearly on a FeatureCollection that is not valid JSON', async () => {
    await expect(importFile(write('c.geojson', '{"type":"FeatureCollection","features":[{"type":'))).rejects.toThrow(/not valid JSON/);
  });

  it('is idempotent and updates changed records', async () => {
    const a = feature('Poststrasse 1, Eschen');
    const b = feature('Poststrasse 2, Eschen');
    const path = write('d.ndjson', [a, b].map((f) => JSON.stringify(f)).join('\n'));
    expect(await importFile(path)).toMatchObject({ inserted: 2, updated: 0, unchanged: 0 });
    expect(await importFile(path)).toMatchObject({ inserted: 0, updated: 0, unchanged: 2 });

    const changed = { ...b, properties: { ...b.properties, heading: 12.5 } };
    const path2 = write('e.ndjson', [a, changed].map((f) => JSON.stringify(f)).join('\n'));
    expect(await importFile(path2)).toMatchObject({ inserted: 0, updated: 1, unchanged: 1 });
    expect(await prisma.imagery.count()).toBe(2);
  });

  it('keeps features without an id idempotent through content-derived ids', async () => {
    const f: any = feature('Zollstrasse 7, Schaanwald');
    delete f.id;
    const path = write('f.ndjson', JSON.stringify(f) + '\n' + JSON.stringify(f));
    expect(await importFile(path)).toMatchObject({ read: 2, inserted: 1, unchanged: 1 });
    expect(await importFile(path)).toMatchObject({ inserted: 0, unchanged: 2 });
    expect(await prisma.imagery.count()).toBe(1);
  });
});
