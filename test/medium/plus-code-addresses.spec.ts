import { Test, TestingModule } from '@nestjs/testing';
import { PrismaClient } from '@prisma/client';
import { DatabaseModule } from '../../src/database/database.module';
import { ImageryModule } from '../../src/imagery/imagery.module';
import { ImageryPlaceLinker } from '../../src/imagery/address-recovery/imagery-place-linker.service';
import { LOCALITY_MAX_DISTANCE_M } from '../../src/imagery/address-recovery/imagery-place-link.repository';
import { seededRandom } from '../../src/common/deterministic-random';
import {
  GAZETTEER,
  insertPlaces,
  insertUnlinkedImagery,
  linkedRows,
  offset,
  resetPlaces,
  SCHAAN,
} from '../helpers/places';
import { prismaClient, resetImagery, testConfig } from '../helpers/test-app';

// open-location-code is Google's reference implementation, already the service's reader of plus codes.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { OpenLocationCode } = require('open-location-code') as {
  OpenLocationCode: new () => { encode(lat: number, lon: number): string };
};
const olc = new OpenLocationCode();

const ids = {
  sea: 'c0000000-0000-4000-8000-000000000001',
  beyond: 'c0000000-0000-4000-8000-000000000002',
  within: 'c0000000-0000-4000-8000-000000000003',
  ownBeyond: 'c0000000-0000-4000-8000-000000000004',
};

// A record far from every town is in none: its address is its plus code, not a town thousands of
// kilometres away (it keeps the nearest locality's region and country, the best guess for `region`).
describe('plus codes for imagery far from every place', () => {
  let moduleRef: TestingModule;
  let prisma: PrismaClient;

  beforeAll(async () => {
    moduleRef = await Test.createTestingModule({
      imports: [DatabaseModule.forRoot(testConfig()), ImageryModule],
    }).compile();
    await moduleRef.init();
    prisma = prismaClient();
  });

  afterAll(async () => {
    await resetPlaces();
    await resetImagery();
    await moduleRef.close();
    await prisma.$disconnect();
  });

  it('lis_plus_code gives the reference implementation’s code, edges included', async () => {
    const random = seededRandom(31);
    const points: Array<[number, number]> = [
      [0, 0],
      [90, 180],
      [-90, -180],
      [47.141, 9.5215],
      [-33.8688, 151.2093],
      [89.99999, 179.99999],
      [12.5, -180],
      [40.000125, -3.0025],
    ];
    for (let i = 0; i < 2000; i++) points.push([random() * 180 - 90, random() * 360 - 180]);
    const rows = await prisma.$queryRawUnsafe<Array<{ code: string }>>(
      `SELECT lis_plus_code(p.lat, p.lon) AS code FROM unnest($1::float8[], $2::float8[]) WITH ORDINALITY AS p(lat, lon, n) ORDER BY n`,
      points.map((p) => p[0]),
      points.map((p) => p[1]),
    );
    expect(rows.map((r) => r.code)).toEqual(points.map(([lat, lon]) => olc.encode(lat, lon)));
  });

  it('gives records beyond the bound their plus code and no locality; records within it their town', async () => {
    await resetImagery();
    await resetPlaces();
    await insertPlaces(GAZETTEER);
    const beyond = offset([SCHAAN.lon, SCHAAN.lat], 0, LOCALITY_MAX_DISTANCE_M + 2_000);
    const within = offset([SCHAAN.lon, SCHAAN.lat], 0, LOCALITY_MAX_DISTANCE_M - 2_000);
    await insertUnlinkedImagery(ids.sea, [0, 0], null);
    await insertUnlinkedImagery(ids.beyond, beyond, null);
    await insertUnlinkedImagery(ids.within, within, null);
    await insertUnlinkedImagery(ids.ownBeyond, beyond, 'Alpweg 3');

    await moduleRef.get(ImageryPlaceLinker).linkRecords(Object.values(ids));
    const rows = await linkedRows();
    const schaan = { locality_id: SCHAAN.id, region_code: 'LI-07', country_code: 'LI' };
    expect(rows.get(ids.sea)).toMatchObject({ address: olc.encode(0, 0), address_origin: 'plus_code', place_id: null });
    expect(rows.get(ids.beyond)).toMatchObject({
      address: olc.encode(beyond[1], beyond[0]),
      address_origin: 'plus_code',
      place_id: null,
      ...schaan,
    });
    expect(rows.get(ids.within)).toMatchObject({
      address: 'Schaan, Liechtenstein',
      address_origin: 'locality',
      locality_id: SCHAAN.id,
      country_code: 'LI',
    });
    expect(rows.get(ids.ownBeyond)).toMatchObject({ address: 'Alpweg 3', address_origin: 'own', ...schaan });

    // Places imported later near such a record give it a town again (plus-code addresses are recovered ones).
    await insertPlaces([
      {
        ...SCHAAN,
        id: '10000000-0000-4000-8000-0000000000ff',
        name: 'Neudorf',
        label: 'Neudorf, Liechtenstein',
        lon: beyond[0],
        lat: beyond[1],
      },
    ]);
    await moduleRef.get(ImageryPlaceLinker).relinkAfterPlaceImport();
    expect((await linkedRows()).get(ids.beyond)).toMatchObject({
      address: 'Neudorf, Liechtenstein',
      address_origin: 'locality',
    });
  });
});
