import { Test, TestingModule } from '@nestjs/testing';
import { PrismaClient } from '@prisma/client';
import { Client } from 'pg';
import { DatabaseModule } from '../../src/database/database.module';
import { ImageryModule } from '../../src/imagery/imagery.module';
import { importSql } from '../../src/imagery/imagery.repository';
import { ImageryPlaceLinkRepository } from '../../src/imagery/address-recovery/imagery-place-link.repository';
import { ImageryPlaceLinker } from '../../src/imagery/address-recovery/imagery-place-linker.service';
import {
  AEULESTRASSE,
  at,
  BASE,
  resetPlaces,
  EAST_20,
  FAR,
  GAZETTEER,
  insertPlaces,
  insertUnlinkedImagery,
  linkedRows,
  offset,
  PAIR_POINT,
  SCHAAN,
  STAEDTLE_1,
  STREET_POINT,
  TestPlace,
  VADUZ,
} from '../helpers/places';
import { prismaClient, resetImagery, testConfig } from '../helpers/test-app';

const ids = {
  atAddress: 'a0000000-0000-4000-8000-000000000001',
  near30: 'a0000000-0000-4000-8000-000000000002',
  street40: 'a0000000-0000-4000-8000-000000000003',
  far: 'a0000000-0000-4000-8000-000000000004',
  pair: 'a0000000-0000-4000-8000-000000000005',
  own: 'a0000000-0000-4000-8000-000000000006',
  ownFar: 'a0000000-0000-4000-8000-000000000007',
};

describe('ImageryPlaceLinker', () => {
  let moduleRef: TestingModule;
  let linker: ImageryPlaceLinker;
  let prisma: PrismaClient;

  const insertImagery = insertUnlinkedImagery;
  const versions = async () =>
    new Map(
      (await prisma.$queryRaw<Array<{ id: string; xmin: string }>>`SELECT id::text, xmin::text FROM imagery`).map(
        (r) => [r.id, r.xmin],
      ),
    );

  beforeAll(async () => {
    moduleRef = await Test.createTestingModule({
      imports: [DatabaseModule.forRoot(testConfig()), ImageryModule],
    }).compile();
    await moduleRef.init();
    linker = moduleRef.get(ImageryPlaceLinker);
    prisma = prismaClient();
  });

  afterAll(async () => {
    await resetPlaces();
    await resetImagery();
    await moduleRef.close();
    await prisma.$disconnect();
  });

  beforeEach(async () => {
    await resetImagery();
    await resetPlaces();
    await insertPlaces(GAZETTEER);
    await insertImagery(ids.atAddress, BASE, null);
    await insertImagery(ids.near30, offset(BASE, -30, 0), null);
    await insertImagery(ids.street40, offset(STREET_POINT, 0, -40), null);
    await insertImagery(ids.far, FAR, null);
    await insertImagery(ids.pair, PAIR_POINT, null);
    await insertImagery(ids.own, BASE, 'Meine Adresse 7, Vaduz');
    await insertImagery(ids.ownFar, FAR, 'Far Away Road 1');
  });

  it('recovers addresses by the rules: address within 50 m, else street within 50 m, else locality; own addresses stay', async () => {
    expect(await linker.linkRecords(Object.values(ids))).toBe(7);
    const rows = await linkedRows();
    const vaduz = { locality_id: VADUZ.id, region_code: 'LI-11', country_code: 'LI' };
    const schaan = { locality_id: SCHAAN.id, region_code: 'LI-07', country_code: 'LI' };
    expect(rows.get(ids.atAddress)).toMatchObject({
      address: 'Städtle 1, 9490 Vaduz',
      address_origin: 'address',
      place_id: STAEDTLE_1.id,
      ...vaduz,
    });
    expect(rows.get(ids.near30)).toMatchObject({
      address: 'Städtle 1, 9490 Vaduz',
      address_origin: 'address',
      place_id: STAEDTLE_1.id,
      ...vaduz,
    });
    // 40 m from the street, 400 m from any address; the street's label does not name the locality.
    expect(rows.get(ids.street40)).toMatchObject({
      address: 'Äulestrasse, Vaduz, Liechtenstein',
      address_origin: 'street',
      place_id: AEULESTRASSE.id,
      ...vaduz,
    });
    expect(rows.get(ids.far)).toMatchObject({
      address: 'Schaan, Liechtenstein',
      address_origin: 'locality',
      place_id: SCHAAN.id,
      ...schaan,
    });
    expect(rows.get(ids.pair)).toMatchObject({
      address: 'Ostweg 20, 9490 Vaduz',
      address_origin: 'address',
      place_id: EAST_20.id,
    });
    expect(rows.get(ids.own)).toMatchObject({
      address: 'Meine Adresse 7, Vaduz',
      address_origin: 'own',
      place_id: null,
      ...vaduz,
    });
    expect(rows.get(ids.ownFar)).toMatchObject({
      address: 'Far Away Road 1',
      address_origin: 'own',
      place_id: null,
      ...schaan,
    });
  });

  it('uses a street label that already names the locality as it is', async () => {
    await prisma.$executeRaw`UPDATE places SET label = 'Äulestrasse, 9490 Vaduz', locality = 'Vaduz' WHERE id = ${AEULESTRASSE.id}::uuid`;
    await linker.linkRecords([ids.street40]);
    expect((await linkedRows()).get(ids.street40)).toMatchObject({
      address: 'Äulestrasse, 9490 Vaduz',
      address_origin: 'street',
    });
  });

  it('relinks after a place import: a nearer address upgrades a locality record, own addresses stay, unchanged rows are not written', async () => {
    await linker.linkRecords(Object.values(ids));
    // Nothing changed since: every record is examined (5 recovered ones; none unlinked) and none written.
    const before = await versions();
    expect(await linker.relinkAfterPlaceImport({ batchSize: 2 })).toEqual({ relinked: 0, unchanged: 5 });
    expect(await versions()).toEqual(before);

    const landstrasse: TestPlace = {
      id: '20000000-0000-4000-8000-000000000009',
      kind: 'address',
      name: 'Landstrasse 9',
      label: 'Landstrasse 9, 9494 Schaan',
      ...at(offset(FAR, 10, 10)),
    };
    await insertPlaces([landstrasse]);
    expect(await linker.relinkAfterPlaceImport({ batchSize: 2 })).toEqual({ relinked: 1, unchanged: 4 });
    const rows = await linkedRows();
    expect(rows.get(ids.far)).toMatchObject({
      address: 'Landstrasse 9, 9494 Schaan',
      address_origin: 'address',
      place_id: landstrasse.id,
      locality_id: SCHAAN.id,
    });
    expect(rows.get(ids.ownFar)).toMatchObject({ address: 'Far Away Road 1', address_origin: 'own', place_id: null });
    const after = await versions();
    expect([...after].filter(([id, xmin]) => before.get(id) !== xmin).map(([id]) => id)).toEqual([ids.far]);
  });

  it('links records without a locality when localities arrive, and keeps recovered addresses when no place is known', async () => {
    await prisma.$executeRaw`UPDATE imagery SET address = 'Kept 1' WHERE id = ${ids.far}::uuid`;
    await resetPlaces();
    // No places: nothing to link to; addresses are never emptied.
    expect(await linker.relinkAfterPlaceImport()).toEqual({ relinked: 0, unchanged: 5 + 7 });
    expect((await linkedRows()).get(ids.far)).toMatchObject({
      address: 'Kept 1',
      address_origin: 'locality',
      locality_id: null,
    });

    await insertPlaces([VADUZ]);
    // Pass one: the 5 recovered records (all relinked); pass two: the 2 own ones, still unlinked.
    expect(await linker.relinkAfterPlaceImport({ batchSize: 3 })).toEqual({ relinked: 7, unchanged: 0 });
    const rows = await linkedRows();
    expect([...rows.values()].every((r) => r.locality_id === VADUZ.id && r.country_code === 'LI')).toBe(true);
    expect(rows.get(ids.far)).toMatchObject({
      address: 'Vaduz, Liechtenstein',
      address_origin: 'locality',
      place_id: VADUZ.id,
    });
    expect(rows.get(ids.own)).toMatchObject({ address: 'Meine Adresse 7, Vaduz', address_origin: 'own' });
  });
});

describe('place linking SQL plans', () => {
  let client: Client;
  let prisma: PrismaClient;
  const sql = importSql({
    staging: 'link_plan_staging',
    seen: 'link_plan_seen',
    stored: 'link_plan_stored',
    links: 'link_plan_links',
    missing: 'link_plan_missing',
  });

  beforeAll(async () => {
    await resetImagery();
    prisma = prismaClient();
    await resetPlaces();
    // Enough places and records that the planner prefers indexes where they pay.
    await prisma.$executeRawUnsafe(`
      INSERT INTO places (id, kind, name, label, location, source, source_id)
      SELECT gen_random_uuid(), (ARRAY['address', 'street', 'locality', 'poi'])[1 + g % 4], 'P ' || g, 'P ' || g,
             ST_SetSRID(ST_MakePoint(9 + (g % 200) * 0.001, 47 + (g / 200) * 0.001), 4326), 'plan', g::text
      FROM generate_series(1, 40000) g`);
    await prisma.$executeRawUnsafe(`
      INSERT INTO imagery (id, address, address_origin, captured_at, heading, location, image_url)
      SELECT gen_random_uuid(), 'Street ' || g, CASE WHEN g % 100 = 0 THEN 'locality' ELSE 'own' END, '2020-01-01', 0,
             ST_SetSRID(ST_MakePoint(9 + (g % 300) * 0.0007, 47 + (g / 300) * 0.0007), 4326), '/a.jpg'
      FROM generate_series(1, 30000) g`);
    // Most records are linked; a few (1%) wait for a locality.
    await prisma.$executeRawUnsafe(
      "UPDATE imagery SET locality_id = gen_random_uuid() WHERE address_origin = 'own' AND random() < 0.99",
    );
    await prisma.$executeRawUnsafe('ANALYZE places');
    await prisma.$executeRawUnsafe('ANALYZE imagery');
    client = new Client({ connectionString: process.env.DATABASE_URL });
    await client.connect();
    // A staged batch as an import sees it: filled, never analyzed.
    await client.query(sql.createStaging.replace('ON COMMIT DELETE ROWS', ''));
    await client.query(`INSERT INTO link_plan_staging (id, address, address_origin, captured_at, heading, interactive, image_url, lon, lat)
      SELECT id, NULL, 'own', captured_at, heading, interactive, image_url, ST_X(location), ST_Y(location) FROM imagery LIMIT 5000`);
  });

  afterAll(async () => {
    await client.end();
    await resetPlaces();
    await resetImagery();
    await prisma.$disconnect();
  });

  const plan = async (text: string, params: unknown[] = []) =>
    (await client.query(`EXPLAIN ${text}`, params)).rows
      .map((r: { 'QUERY PLAN': string }) => r['QUERY PLAN'])
      .join('\n');
  const KNN = ['places_locality_location_idx', 'places_address_location_idx', 'places_street_location_idx'];

  // Relinking finds its records through the partial index (an index scan in id order, or a bitmap
  // scan when few records match); linking a set probes each id. Each nearest-place lookup walks its kind's partial KNN index, bounded by the 50 m box for
  // addresses and streets; the places table is never scanned.
  const expectKnn = (text: string) => {
    for (const index of KNN) expect(text).toContain(`Index Scan using ${index} on places`);
    expect(text).toMatch(/Index Cond: \(location && st_expand/);
    expect(text).toContain('Order By: (location <-> ');
    expect(text).not.toMatch(/Seq Scan on places/);
  };

  it('linking a set of records probes them by primary key and uses the partial KNN indexes', async () => {
    const ids = (await client.query('SELECT id::text FROM imagery LIMIT 5000')).rows.map((r) => r.id);
    const statement = ImageryPlaceLinkRepository.linkIdsSql(ids);
    const text = await plan(statement.text, statement.values);
    expectKnn(text);
    expect(text).not.toMatch(/Seq Scan on imagery/);
  });

  it.each([
    ['recovered', 'imagery_recovered_idx'],
    ['unlinked', 'imagery_unlinked_idx'],
  ] as const)('relinking walks the %s records along %s', async (scope, index) => {
    const statement = ImageryPlaceLinkRepository.relinkBatchSql(scope, '00000000-0000-4000-8000-000000000000', 5000);
    const text = await plan(statement.text, statement.values);
    expect(text).toMatch(new RegExp(`(Index Scan using|Bitmap Index Scan on) ${index}`));
    expectKnn(text);
    expect(text).not.toMatch(/Seq Scan on imagery/);
  });

  it('an import batch settles stored records by primary key and links the rest with the KNN indexes', async () => {
    const settle = await plan(sql.settle);
    expect(settle).toContain('imagery_pkey');
    expect(settle).not.toMatch(/Seq Scan on imagery/);
    expectKnn(await plan(sql.link));
  });

  // The form taken where imagery is distributed (Citus) reads into temporary tables first; on one server
  // it gives the staged batch the same links as settle and link.
  it('the Citus form of settle and link links the batch alike, reading stored rows by primary key', async () => {
    await client.query(sql.citus.createStored);
    await client.query(sql.citus.createLinks);
    const ids = (await client.query<{ id: string }>('SELECT id::text FROM link_plan_staging')).rows.map((r) => r.id);
    const staged = async (steps: Array<[string, unknown[]?]>) => {
      await client.query('BEGIN');
      try {
        // Some records bring an address of their own, some moved: neither keeps the stored links whole.
        await client.query(
          `UPDATE link_plan_staging SET address = 'Own ' || id WHERE ('x' || left(id::text, 2))::bit(8)::int % 3 = 0`,
        );
        await client.query(
          `UPDATE link_plan_staging SET lon = lon + 0.0001 WHERE ('x' || left(id::text, 2))::bit(8)::int % 5 = 0`,
        );
        for (const [text, params] of steps) await client.query(text, params);
        const { rows } = await client.query('SELECT * FROM link_plan_staging ORDER BY id');
        return rows;
      } finally {
        await client.query('ROLLBACK');
      }
    };
    const onOneServer = await staged([[sql.settle], [sql.link]]);
    const citus = await staged([
      [sql.citus.readStored, [ids]],
      [sql.citus.settleFromStored],
      [sql.citus.linkInto],
      [sql.citus.linkFromLinks],
    ]);
    expect(citus).toEqual(onOneServer);
    expect(onOneServer.filter((r) => r.settled).length).toBeGreaterThan(1000);
    expect(onOneServer.filter((r) => !r.settled && r.locality_id !== null).length).toBeGreaterThan(100);
    // The array's length is the planner's estimate: a few ids are probed by primary key; 500 of these
    // 30,000 rows are already read by a scan, which the planner costs as cheaper (docs/scaling.md#citus).
    const read = (await plan(sql.citus.readStored, [ids.slice(0, 50)])).split('\n')[1] ?? '';
    expect(read).toMatch(/Index Scan using imagery_pkey|Bitmap Heap Scan on imagery/);
    expectKnn(await plan(sql.citus.linkInto));
  });
});
