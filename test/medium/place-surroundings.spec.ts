import { TestingModule } from '@nestjs/testing';
import { SURROUNDINGS_RADIUS_M } from '../../src/search/place-matching/place-surroundings';
import { SearchResponseDto } from '../../src/search/dto/search-response.dto';
import { destination } from '../relevance/relevance-catalogue';
import { insertPlaces, linkRecord, resetPlaces, KeyedTestPlace } from '../helpers/places';
import { startSearchService } from '../helpers/search-service';
import { feature, importFixture, resetImagery } from '../helpers/test-app';

// A query that names a place with no imagery of its own gets the imagery nearest to that place
// (within a radius set by its kind), not nothing.
const HAMLET: KeyedTestPlace = {
  key: 'hamlet',
  kind: 'locality',
  name: 'Quietby',
  label: 'Quietby, Testland',
  lon: 10.2,
  lat: 47.5,
  importance: 0.3,
  countryCode: 'AT',
};
const TOWN: KeyedTestPlace = {
  key: 'town',
  kind: 'locality',
  name: 'Busyton',
  label: 'Busyton, Testland',
  lon: 10.3,
  lat: 47.6,
  importance: 0.4,
  countryCode: 'AT',
};
const LANE: KeyedTestPlace = {
  key: 'lane-3',
  kind: 'address',
  name: 'Mosslane 3',
  label: 'Mosslane 3, Busyton',
  ...destination(TOWN, 0, 2_000),
  importance: 0.05,
  countryCode: 'AT',
};
const FARAWAY: KeyedTestPlace = {
  key: 'faraway',
  kind: 'locality',
  name: 'Farawayton',
  label: 'Farawayton, Testland',
  lon: 12.5,
  lat: 47.5,
  importance: 0.3,
  countryCode: 'AT',
};

describe('imagery around a place that has none of its own', () => {
  let moduleRef: TestingModule;
  let search: (body: object) => Promise<SearchResponseDto>;
  const idOf = new Map<string, string>();

  beforeAll(async () => {
    await resetImagery();
    await resetPlaces();
    await insertPlaces([HAMLET, TOWN, LANE, FARAWAY]);
    const at = (from: { lat: number; lon: number }, bearing: number, m: number): [number, number] => {
      const p = destination(from, bearing, m);
      return [p.lon, p.lat];
    };
    const records = {
      townCentre: feature('Main Square 1, Busyton', { captured_at: '2020-01-01' }, [TOWN.lon, TOWN.lat]),
      nearHamlet: feature('Field Road 9, Busyton', { captured_at: '2019-01-01' }, at(HAMLET, 90, 1_500)),
      fartherFromHamlet: feature('Field Road 30, Busyton', { captured_at: '2023-01-01' }, at(HAMLET, 90, 4_000)),
      nearLane: feature('Mosslane 5, Busyton', { captured_at: '2021-01-01' }, at(LANE, 90, 60)),
    };
    for (const [name, f] of Object.entries(records)) idOf.set(f.id, name);
    expect((await importFixture(Object.values(records))).rejected).toBe(0);
    for (const f of Object.values(records)) await linkRecord(f.id, { locality: 'town' });

    ({ moduleRef, search } = await startSearchService());
  });

  afterAll(async () => {
    await moduleRef?.close();
    await resetImagery();
    await resetPlaces();
  });

  const names = async (body: object) => (await search({ limit: 10, ...body })).data.map((d) => idOf.get(d.id));

  it('answers a locality without imagery with the imagery nearest to it, nearest first', async () => {
    expect(await names({ query: 'Quietby' })).toEqual(['nearHamlet', 'fartherFromHamlet']);
    const withPlace = await search({ query: 'Quietby', include: ['place', 'distance_m'] });
    expect(withPlace.data[0].distance_m).toBeCloseTo(1_500, -1);
    // Each record still names the place it is in, not the one it was found near.
    expect(withPlace.data[0].place).toMatchObject({ label: 'Busyton, Testland', kind: 'locality' });
  });

  it('answers an address without imagery with the imagery around it, and keeps the other filters', async () => {
    expect(await names({ query: 'Mosslane 3' })).toEqual(['nearLane']);
    expect(await names({ query: 'Quietby', captured_after: '2022-01-01' })).toEqual(['fartherFromHamlet']);
  });

  it('stays empty when nothing is within the place kind radius', async () => {
    expect(SURROUNDINGS_RADIUS_M.locality).toBeLessThan(100_000);
    expect(await names({ query: 'Farawayton' })).toEqual([]);
  });

  it('leaves a place with its own imagery as it was: its own records, not its surroundings', async () => {
    expect((await names({ query: 'Busyton' })).sort()).toEqual([
      'fartherFromHamlet',
      'nearHamlet',
      'nearLane',
      'townCentre',
    ]);
    expect(await names({ query: 'Main Square 1' })).toEqual(['townCentre']);
  });
});
