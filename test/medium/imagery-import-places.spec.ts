import { createWriteStream, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Test, TestingModule } from '@nestjs/testing';
import { PrismaClient } from '@prisma/client';
import { DatabaseModule } from '../../src/database/database.module';
import { readFeatures } from '../../src/imagery/formats/imagery-feature.reader';
import { IMPORT_FORMATS, ImportFormat, openInput } from '../../src/import-formats/import-input';
import { ImageryExportService } from '../../src/imagery/imagery-export.service';
import { ImageryImportService, ImportOptions } from '../../src/imagery/imagery-import.service';
import { ImageryModule } from '../../src/imagery/imagery.module';
import { cli, counts, Run } from '../helpers/cli-tools';
import { writeImageryFile } from '../helpers/imagery-files';
import {
  AEULESTRASSE,
  BASE,
  resetPlaces,
  FAR,
  GAZETTEER,
  insertPlaces,
  linkedRows,
  offset,
  SCHAAN,
  STAEDTLE_1,
  STREET_POINT,
  VADUZ,
  LinkedRow,
} from '../helpers/places';
import { feature, prismaClient, resetImagery, testConfig } from '../helpers/test-app';

const without = (f: ReturnType<typeof feature>) => {
  const { address: _, ...properties } = f.properties;
  return { ...f, properties };
};

describe('importing imagery without addresses', () => {
  let moduleRef: TestingModule;
  let importer: ImageryImportService;
  let exporter: ImageryExportService;
  let prisma: PrismaClient;
  const dir = mkdtempSync(join(tmpdir(), 'lis-import-places-'));

  const importFile = async (path: string, format: ImportFormat, options: ImportOptions = {}) =>
    importer.importFeatures(readFeatures((await openInput(path)).stream, format), { source: null, ...options });
  const writeNdjson = (name: string, features: object[]) => {
    const path = join(dir, name);
    writeFileSync(path, features.map((f) => JSON.stringify(f)).join('\n'));
    return path;
  };
  // Every stored column an import can set, and the row version.
  const snapshot = () => prisma.$queryRaw<unknown[]>`
    SELECT id, address, address_origin, place_id, locality_id, region_code, country_code, captured_at::text, heading,
           interactive, image_url, ST_AsText(location) AS location, source, xmin::text AS version
    FROM imagery ORDER BY id`;

  // The cases around the test gazetteer: at an address point, 30 m from an address, 40 m from a street
  // and 400 m from any address, far from everything; and two with addresses of their own.
  const atAddress = without(feature('', {}, BASE));
  const near30 = without(feature('', {}, offset(BASE, -30, 0)));
  const street40 = without(feature('', {}, offset(STREET_POINT, 0, -40)));
  const far = without(feature('', {}, FAR));
  const own = feature('Meine Adresse 7, Vaduz', {}, BASE);
  const ownFar = feature('Far Away Road 1', {}, FAR);
  const mixed = [atAddress, near30, street40, far, own, ownFar];

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
    await resetPlaces();
    await resetImagery();
    await moduleRef.close();
    await prisma.$disconnect();
    rmSync(dir, { recursive: true, force: true });
  });

  beforeEach(async () => {
    await resetImagery();
    await resetPlaces();
    await insertPlaces(GAZETTEER);
  });

  it('gives each record without an address the nearest address, street or locality, and links every record', async () => {
    const summary = await importFile(writeNdjson('mixed.ndjson', mixed), 'ndjson', { batchSize: 4 });
    expect(summary).toMatchObject({ read: 6, inserted: 6, rejected: 0 });
    const rows = await linkedRows();
    const vaduz = { locality_id: VADUZ.id, region_code: 'LI-11', country_code: 'LI' };
    const schaan = { locality_id: SCHAAN.id, region_code: 'LI-07', country_code: 'LI' };
    expect(rows.get(atAddress.id)).toEqual({
      id: atAddress.id,
      address: STAEDTLE_1.label,
      address_origin: 'address',
      place_id: STAEDTLE_1.id,
      ...vaduz,
    });
    expect(rows.get(near30.id)).toEqual({
      id: near30.id,
      address: STAEDTLE_1.label,
      address_origin: 'address',
      place_id: STAEDTLE_1.id,
      ...vaduz,
    });
    expect(rows.get(street40.id)).toEqual({
      id: street40.id,
      address: 'Äulestrasse, Vaduz, Liechtenstein',
      address_origin: 'street',
      place_id: AEULESTRASSE.id,
      ...vaduz,
    });
    expect(rows.get(far.id)).toEqual({
      id: far.id,
      address: SCHAAN.label,
      address_origin: 'locality',
      place_id: SCHAAN.id,
      ...schaan,
    });
    expect(rows.get(own.id)).toEqual({
      id: own.id,
      address: 'Meine Adresse 7, Vaduz',
      address_origin: 'own',
      place_id: null,
      ...vaduz,
    });
    expect(rows.get(ownFar.id)).toEqual({
      id: ownFar.id,
      address: 'Far Away Road 1',
      address_origin: 'own',
      place_id: null,
      ...schaan,
    });
  });

  it('reads CSV without an address column or with empty address cells', async () => {
    const csv = (name: string, header: string, rows: string[]) => {
      const path = join(dir, name);
      writeFileSync(path, [header, ...rows].join('\n'));
      return path;
    };
    const noColumn = csv('no-address.csv', 'id,captured_at,heading,image_url,lon,lat', [
      `${atAddress.id},2020-01-01,10,/a.jpg,${BASE[0]},${BASE[1]}`,
    ]);
    const emptyCell = csv('empty-address.csv', 'id,address,captured_at,heading,image_url,lon,lat', [
      `${far.id},,2020-01-01,10,/b.jpg,${FAR[0]},${FAR[1]}`,
    ]);
    expect(await importFile(noColumn, 'csv')).toMatchObject({ inserted: 1, rejected: 0 });
    expect(await importFile(emptyCell, 'csv')).toMatchObject({ inserted: 1, rejected: 0 });
    const rows = await linkedRows();
    expect(rows.get(atAddress.id)).toMatchObject({ address: STAEDTLE_1.label, address_origin: 'address' });
    expect(rows.get(far.id)).toMatchObject({ address: SCHAAN.label, address_origin: 'locality' });
  });

  it('rejects records without an address when no place is known, and stores the others', async () => {
    await resetPlaces();
    const summary = await importFile(writeNdjson('no-places.ndjson', mixed), 'ndjson');
    expect(summary).toMatchObject({ read: 6, inserted: 2, unchanged: 0, rejected: 4 });
    expect(summary.rejections.map((r) => [r.position, r.field])).toEqual([
      [1, 'address'],
      [2, 'address'],
      [3, 'address'],
      [4, 'address'],
    ]);
    expect(summary.rejections[0].reason).toMatch(/no place is known.*import places first \(npm run import:places\)/);
    const rows = await linkedRows();
    expect([...rows.keys()].sort()).toEqual([own.id, ownFar.id].sort());
    expect(rows.get(own.id)).toMatchObject({
      address: 'Meine Adresse 7, Vaduz',
      address_origin: 'own',
      locality_id: null,
      country_code: null,
    });
  });

  it('a dry run recovers and rejects alike, and changes nothing', async () => {
    await resetPlaces();
    await insertPlaces([STAEDTLE_1]);
    const summary = await importFile(writeNdjson('dry.ndjson', mixed), 'ndjson', { dryRun: true });
    // At the address and 30 m from it: recovered; the street and the localities are not known here.
    expect(summary).toMatchObject({ read: 6, inserted: 4, rejected: 2 });
    expect(summary.rejections.map((r) => r.position)).toEqual([3, 4]);
    expect(await prisma.imagery.count()).toBe(0);
  });

  it('re-importing the same file changes nothing: a missing address keeps the recovered one', async () => {
    const path = writeNdjson('again.ndjson', mixed);
    await importFile(path, 'ndjson');
    const before = await snapshot();
    expect(await importFile(path, 'ndjson')).toMatchObject({
      read: 6,
      inserted: 0,
      updated: 0,
      unchanged: 6,
      rejected: 0,
    });
    expect(await snapshot()).toEqual(before);
  });

  it.each(IMPORT_FORMATS)(
    'export then import (%s) round-trips every record unchanged, recovered addresses and sources included',
    async (format) => {
      await importFile(writeNdjson('a.ndjson', mixed.slice(0, 3)), 'ndjson', { source: 'survey-a' });
      await importFile(writeNdjson('b.ndjson', mixed.slice(3)), 'ndjson');
      const before = await snapshot();
      const path = join(dir, `export.${format}`);
      expect(await exporter.write(exporter.catalogue(), format, createWriteStream(path))).toEqual({ records: 6 });

      expect(await importFile(path, format)).toMatchObject({
        read: 6,
        inserted: 0,
        updated: 0,
        unchanged: 6,
        rejected: 0,
      });
      expect(await snapshot()).toEqual(before);

      // Elsewhere, without places: exported recovered addresses are kept as they were.
      await resetImagery();
      await resetPlaces();
      expect(await importFile(path, format)).toMatchObject({ inserted: 6, rejected: 0 });
      const rows = await linkedRows();
      expect(rows.get(street40.id)).toMatchObject({
        address: 'Äulestrasse, Vaduz, Liechtenstein',
        address_origin: 'street',
        place_id: null,
        locality_id: null,
      });
      expect(rows.get(own.id)).toMatchObject({ address: 'Meine Adresse 7, Vaduz', address_origin: 'own' });
      const sources = await prisma.$queryRaw<
        Array<{ id: string; source: string | null }>
      >`SELECT id::text, source FROM imagery`;
      expect(new Map(sources.map((r) => [r.id, r.source]))).toEqual(
        new Map(mixed.map((f, i) => [f.id, i < 3 ? 'survey-a' : null])),
      );
    },
  );

  it('a killed import (kill -9) leaves only whole batches, every record with a recovered address', async () => {
    const file = join(dir, 'kill.ndjson');
    await writeImageryFile(file, { records: 20_000, format: 'ndjson', withoutAddress: 100 });
    const args = [file, '--source', 'kill-places', '--batch-size', '300'];
    const first: Run = cli('import', args);
    let exited = false;
    void first.done.then(() => (exited = true));
    while ((await prisma.imagery.count()) < 900) {
      if (exited) throw new Error(`the import ended early: ${(await first.done).stderr}`);
      await new Promise((r) => setTimeout(r, 20));
    }
    first.child.kill('SIGKILL');
    expect((await first.done).signal).toBe('SIGKILL');

    const rows = [...(await linkedRows()).values()];
    expect(rows.length).toBeLessThan(20_000);
    expect(rows.length % 300).toBe(0);
    // The generated records lie all over the world: far from every address, each takes the label of the
    // nearer of the two localities within LOCALITY_MAX_DISTANCE_M of it, else its plus code.
    const byLocality = (r: LinkedRow) =>
      r.address_origin === 'locality' && [VADUZ.label, SCHAAN.label].includes(r.address) && r.place_id !== null;
    const byPlusCode = (r: LinkedRow) =>
      r.address_origin === 'plus_code' &&
      /^[2-9CFGHJMPQRVWX]{8}\+[2-9CFGHJMPQRVWX]{2}$/.test(r.address) &&
      r.place_id === null;
    expect(rows.filter((r) => !byLocality(r) && !byPlusCode(r))).toEqual([]);
    expect(rows.some(byPlusCode)).toBe(true);

    const second = await cli('import', args).done;
    expect(second.code).toBe(0);
    expect(counts(second.stdout)).toMatchObject({
      read: 20_000,
      inserted: 20_000 - rows.length,
      unchanged: rows.length,
      rejected: 0,
    });
  }, 240_000);
});
