import { Test, TestingModule } from '@nestjs/testing';
import { Client } from 'pg';
import { DatabaseModule } from '../../src/database/database.module';
import { Migrator } from '../../src/database/migrator';
import { PlacesModule } from '../../src/places/places.module';
import { GazetteerSeedService } from '../../src/places/gazetteer/gazetteer-seed.service';
import { placeId } from '../../src/places/place-record';
import { testConfig } from '../helpers/test-app';
import { createThrowawayDatabase, ThrowawayDatabase } from '../setup/test-database';

// Seeds the world gazetteer into a database of its own (cities of 100,000 people or more, to keep
// the test quick; the size is the only difference from the real seed) and seeds it again.
describe('world gazetteer seed', () => {
  const MIN = 100_000;
  let db: ThrowawayDatabase;
  let moduleRef: TestingModule;
  let seeder: GazetteerSeedService;
  let client: Client;
  const versions = async () =>
    (
      await client.query<{ v: string }>(
        "SELECT string_agg(id::text || xmin::text || xmax::text, ',' ORDER BY id) AS v FROM places",
      )
    ).rows[0].v;
  const find = async (query: string) =>
    (
      await client.query<{ label: string }>(
        "SELECT label FROM places WHERE search_tsv @@ plainto_tsquery('simple', lis_search_text($1)) ORDER BY importance DESC, label LIMIT 5",
        [query],
      )
    ).rows.map((r) => r.label);

  beforeAll(async () => {
    db = await createThrowawayDatabase();
    await new Migrator(db.url).migrate();
    moduleRef = await Test.createTestingModule({
      imports: [DatabaseModule.forRoot(testConfig({ databaseUrl: db.url })), PlacesModule],
    }).compile();
    await moduleRef.init();
    seeder = moduleRef.get(GazetteerSeedService);
    client = new Client({ connectionString: db.url });
    await client.connect();
  }, 300_000);

  afterAll(async () => {
    await client?.end();
    await moduleRef?.close();
    await db?.drop();
  });

  it('loads every place once, and a second seed writes nothing', async () => {
    const first = await seeder.seed({ minLocalityPopulation: MIN });
    expect(first.updated + first.unchanged + first.deleted).toBe(0);
    expect(first.inserted).toBeGreaterThan(45_000); // ~4,000 cities, ~3,600 regions, ~41,900 ZIP codes
    const byKind = (
      await client.query<{ kind: string; n: number }>(
        'SELECT kind, count(*)::int AS n FROM places GROUP BY kind ORDER BY kind',
      )
    ).rows;
    expect(byKind.map((r) => r.kind)).toEqual(['country', 'locality', 'postcode', 'region']);
    expect(byKind.reduce((s, r) => s + r.n, 0)).toBe(first.inserted);

    const before = await versions();
    const second = await seeder.seed({ minLocalityPopulation: MIN });
    expect(second).toMatchObject({ inserted: 0, updated: 0, unchanged: first.inserted, deleted: 0 });
    expect(await versions()).toBe(before);
  }, 600_000);

  it('puts back a changed place, and drops places the data no longer has', async () => {
    const munich = placeId('world-gazetteer', 'geonames:2867714');
    await client.query("UPDATE places SET label = 'Somewhere else' WHERE id = $1", [munich]);
    const repaired = await seeder.seed({ minLocalityPopulation: MIN });
    expect(repaired).toMatchObject({ inserted: 0, updated: 1, deleted: 0 });
    expect((await client.query('SELECT label FROM places WHERE id = $1', [munich])).rows[0].label).toBe(
      'Munich, Bavaria, Germany',
    );

    const fewer = await seeder.seed({ minLocalityPopulation: 1_000_000 });
    expect(fewer.inserted + fewer.updated).toBe(0);
    expect(fewer.deleted).toBeGreaterThan(3_000);
    expect(
      (await client.query("SELECT count(*)::int AS n FROM places WHERE kind = 'locality' AND population < 1000000"))
        .rows[0].n,
    ).toBe(0);
  }, 600_000);

  it('finds places by their names in the database: umlauts, written-out umlauts, other languages, codes', async () => {
    expect(await find('München')).toContain('Munich, Bavaria, Germany');
    expect(await find('Muenchen')).toContain('Munich, Bavaria, Germany');
    expect(await find('Bayern')).toContain('Bavaria, Germany');
    expect((await find('Deutschland'))[0]).toBe('Germany');
    expect(await find('California US-CA')).toContain('California, United States');
    const zip = (
      await client.query("SELECT label, region_code, ST_AsText(location) AS at FROM places WHERE name = '62701'")
    ).rows[0];
    expect(zip).toEqual({
      label: 'Springfield, IL 62701, United States',
      region_code: 'US-IL',
      at: expect.stringMatching(/^POINT\(-89\.6/),
    });
  });
});
