import { TestingModule } from '@nestjs/testing';
import { SearchResponseDto } from '../../src/search/dto/search-response.dto';
import { insertPlaces, linkRecord, resetPlaces, testPlaceId } from '../helpers/places';
import { startSearchService } from '../helpers/search-service';
import { feature, importFixture, resetImagery } from '../helpers/test-app';
import {
  ADDRESS,
  AMPERSAND_TOWN,
  AMPERSAND_TOWN_RECORD,
  LOCALITIES,
  MUSEUM,
  MUSEUM_BUILDING,
  MUSEUM_VIEWS,
  NAMESAKE_LOCALITY,
  NAMESAKE_SHOP,
  NAMESAKE_SHOP_RECORD,
  POI,
  POI_ELSEWHERE,
  POI_VIEWS,
  TOWN,
  TOWN_CENTRE_VIEW,
  TOWN_RECORDS,
  VIEWS,
} from '../helpers/place-search-gazetteer';

// Search that knows places, on a small gazetteer (test/helpers/place-search-gazetteer.ts): the place a query
// means comes first.
describe('search that knows places', () => {
  let moduleRef: TestingModule;
  let search: (body: object) => Promise<SearchResponseDto>;
  const recordOf = new Map<string, string>(); // place key or view name -> record id
  const keyOf = (id: string) => [...recordOf].find(([, v]) => v === id)?.[0] ?? id;

  beforeAll(async () => {
    await resetImagery();
    await resetPlaces();
    await insertPlaces([
      ...LOCALITIES,
      ADDRESS,
      POI,
      POI_ELSEWHERE,
      TOWN,
      NAMESAKE_LOCALITY,
      NAMESAKE_SHOP,
      AMPERSAND_TOWN,
      MUSEUM,
      MUSEUM_BUILDING,
    ]);
    const features = LOCALITIES.map((p) => feature(p.label, {}, [p.lon, p.lat]));
    LOCALITIES.forEach((p, i) => recordOf.set(p.key, features[i].id));
    for (const [name, v] of Object.entries(VIEWS)) {
      const address = v.own ? ADDRESS.label : 'Herrengasse 37, 9490 Vaduz';
      const f = feature(address, { heading: v.heading, captured_at: v.date, interactive: v.interactive }, [
        v.where.lon,
        v.where.lat,
      ]);
      recordOf.set(name, f.id);
      features.push(f);
    }
    for (const [name, v] of Object.entries({ ...POI_VIEWS, ...MUSEUM_VIEWS })) {
      const f = feature(v.address, { heading: v.heading }, [v.where.lon, v.where.lat]);
      recordOf.set(name, f.id);
      features.push(f);
    }
    for (const [name, v] of Object.entries(TOWN_RECORDS)) {
      const f = feature(v.address, {}, [v.where.lon, v.where.lat]);
      recordOf.set(name, f.id);
      features.push(f);
    }
    const centreView = feature(TOWN_CENTRE_VIEW.address, {}, [TOWN_CENTRE_VIEW.where.lon, TOWN_CENTRE_VIEW.where.lat]);
    recordOf.set('townCentreView', centreView.id);
    features.push(centreView);
    const shopRecord = feature(NAMESAKE_SHOP_RECORD.address, {}, [
      NAMESAKE_SHOP_RECORD.where.lon,
      NAMESAKE_SHOP_RECORD.where.lat,
    ]);
    recordOf.set('namesakeShop', shopRecord.id);
    features.push(shopRecord);
    // An address named after a place elsewhere: what a misspelling of its street means.
    const court = feature('7 Springfield Court, 9490 Vaduz', {}, [9.521, 47.141]);
    recordOf.set('springfield-court', court.id);
    features.push(court);
    const ampersand = feature(AMPERSAND_TOWN_RECORD.address, {}, [
      AMPERSAND_TOWN_RECORD.where.lon,
      AMPERSAND_TOWN_RECORD.where.lat,
    ]);
    recordOf.set('ampersandTown', ampersand.id);
    features.push(ampersand);
    expect((await importFixture(features)).rejected).toBe(0);
    for (const p of LOCALITIES) await linkRecord(recordOf.get(p.key)!, { locality: p.key });
    for (const name of Object.keys(TOWN_RECORDS)) await linkRecord(recordOf.get(name)!, { locality: TOWN.key });
    await linkRecord(ampersand.id, { locality: AMPERSAND_TOWN.key });
    await linkRecord(recordOf.get('museumDoor')!, { locality: 'vaduz', place: MUSEUM_BUILDING.key, origin: 'address' });
    for (const [name, v] of Object.entries(VIEWS)) {
      await linkRecord(
        recordOf.get(name)!,
        v.own ? { locality: 'vaduz', place: ADDRESS.key, origin: 'address' } : { locality: 'vaduz' },
      );
    }

    ({ moduleRef, search } = await startSearchService());
  });

  afterAll(async () => {
    await moduleRef?.close();
    await resetImagery();
    await resetPlaces();
  });

  const keys = async (body: object) => (await search({ limit: 10, ...body })).data.map((d) => keyOf(d.id));

  it('puts the most important place of a name first, then the others of that name', async () => {
    const london = await keys({ query: 'London' });
    expect(london.slice(0, 2)).toEqual(['london-gb', 'london-ca']);
    // Named "London" only as a word of one of its other names: not a London.
    expect(london).not.toContain('croydon');
    expect((await keys({ query: 'San Francisco' })).slice(0, 3)).toEqual(['sf-us', 'sf-ar', 'sf-sv']);
  });

  it('says the named places pinned the page, and a region alone read it within the region (interpretation.page_strategy)', async () => {
    const named = await search({ query: 'London', include: ['interpretation'] });
    expect(named.interpretation).toMatchObject({ step: 'full-text', page_strategy: 'head-and-tail+pinned' });
    const inCountry = await search({ query: 'London', region: 'GB', include: ['interpretation'] });
    expect(inCountry.interpretation?.page_strategy).toBe('head-and-tail+within-region+pinned');
    const newest = await search({ query: 'London', sort: 'newest', include: ['interpretation'] });
    expect(newest.interpretation?.page_strategy).toBe('sorted+pinned');
    // Without the include, the response is as it always was.
    expect(await search({ query: 'London' })).not.toHaveProperty('interpretation');
  });

  it('does so while the name is typed and when it is misspelt', async () => {
    expect((await keys({ query: 'San Fr' }))[0]).toBe('sf-us');
    expect((await keys({ query: 'Lond' }))[0]).toBe('london-gb');
    expect((await keys({ query: 'Sna Francisco' }))[0]).toBe('sf-us');
  });

  it('takes the addresses that hold the corrected words over the places most like the misspelling', async () => {
    // "Springfeld Court" corrects to "Springfield Court", which names no place: the address that holds
    // both words comes first, not the records of the Springfields (the names most like the query).
    const got = await search({ query: 'Springfeld Court', include: ['interpretation'] });
    expect(got.data.map((d) => keyOf(d.id))).toEqual(['springfield-court']);
    expect(got.interpretation).toEqual({
      kind: 'text',
      normalized: 'springfield court',
      step: 'corrected-full-text',
      page_strategy: 'head-and-tail',
      approximate: true,
      corrections: [{ from: 'springfeld', to: 'springfield' }],
    });
    // A misspelt place name whose corrected words hold no address still finds the place.
    expect((await keys({ query: 'Sprngfield' }))[0]).toBe('springfield-mo');
  });

  it('lists same-named places apart, and takes their region in any form and order', async () => {
    const springfields = await search({ query: 'Springfield', limit: 3 });
    expect(springfields.data.map((d) => keyOf(d.id))).toEqual(['springfield-mo', 'springfield-ma', 'springfield-il']);
    expect(new Set(springfields.data.map((d) => d.address)).size).toBe(3);
    for (const query of ['Springfield IL', 'Springfield, Illinois', 'Illinois Springfield']) {
      expect({ query, first: (await keys({ query }))[0] }).toEqual({ query, first: 'springfield-il' });
    }
    expect((await keys({ query: 'San Francisco CA' }))[0]).toBe('sf-us');
    expect((await keys({ query: 'Vaduz Liechtenstein' }))[0]).toBe('vaduz');
  });

  // Addresses write a name's initials otherwise ("Washington, DC"): a record of the place is its
  // imagery when its address holds the name's other words.
  it("counts a place's records as its imagery when their address writes its initials otherwise", async () => {
    for (const body of [{ query: 'Washington' }, { query: 'Washington', region: 'US-DC' }]) {
      const [first] = (await search({ limit: 10, include: ['score'], ...body })).data;
      expect(keyOf(first.id)).toBe('washington-dc');
      expect(first.score).toBeGreaterThanOrEqual(30); // a named place's imagery (see place-ranking.ts)
    }
  });

  it('reads a town written with a symbol as the town, not as the country code left of it ("At&t" is no Austria)', async () => {
    for (const query of ['Wilson Road, At&t', 'Wihson Road, At&t']) {
      const got = await search({ query, limit: 10, include: ['interpretation'] });
      expect({ query, first: keyOf(got.data[0]?.id ?? '') }).toEqual({ query, first: 'ampersandTown' });
      expect({ query, named: got.interpretation?.named_region }).toEqual({ query, named: undefined });
    }
  });

  it('finds a place by its other names', async () => {
    expect((await keys({ query: 'München' }))[0]).toBe('munich');
    expect((await keys({ query: 'Muenchen' }))[0]).toBe('munich');
  });

  it('shows an address best: its own records that show it (facing it, panoramas, beside it), nearest then newest first, then the rest of its own, then neighbours facing it', async () => {
    const got = await keys({ query: 'Herrengasse 35 Vaduz' });
    expect(got.slice(0, 6)).toEqual(['beside', 'facing', 'panorama', 'downTheStreet', 'away', 'neighbourFacing']);
    expect(got).not.toContain('neighbourAway');
  });

  it('shows a town by the records nearest its centre first, not by the address that is its name alone', async () => {
    // The record at its point first, though its address names another village's street.
    expect(await keys({ query: 'Balzers' })).toEqual(['townCentreView', 'townCentre', 'townOutskirts']);
  });

  it('shows a POI by the records nearest it that face it, whatever address they recovered, though another of its name ranks first', async () => {
    const got = await search({ query: 'Postmuseum', limit: 10, include: ['place'] });
    expect(got.data.map((d) => keyOf(d.id))).toEqual(['poiBeside', 'poiFacing']);
    expect(got.data[1].place).toMatchObject({ id: testPlaceId(POI.key), kind: 'poi' });
    expect(got.data[1].place!.bearing_offset_deg).toBeLessThan(1);
  });

  it("shows a POI by the record at its door though that record recovered its building's address, a lesser place of the name", async () => {
    expect(await keys({ query: 'National Museum' })).toEqual(['museumDoor', 'museumAcross']);
  });

  it('shows a shop by its records though a locality of its name without imagery ranks first', async () => {
    expect(await keys({ query: 'Fatale' })).toEqual(['namesakeShop']);
    // Under a filter the pinned rows are those that score: the shop's view scores beside the town's.
    expect(await keys({ query: 'Fatale', captured_after: '2000-01-01' })).toEqual(['namesakeShop']);
  });

  it('limits results to a region and names it; region is part of what result_id identifies', async () => {
    const canada = await search({ query: 'London', region: 'ca' });
    expect(canada.data.map((d) => keyOf(d.id))).toEqual(['london-ca']);
    expect({ region: canada.region, region_id: canada.region_id }).toEqual({ region: 'Canada', region_id: 'CA' });
    const illinois = await search({ query: 'Springfield', region: 'US-IL' });
    expect(illinois.data.map((d) => keyOf(d.id))).toEqual(['springfield-il']);
    expect({ region: illinois.region, region_id: illinois.region_id }).toEqual({
      region: 'Illinois',
      region_id: 'US-IL',
    });
    const global = await search({ query: 'London' });
    expect({ region: global.region, region_id: global.region_id }).toEqual({ region: 'global', region_id: null });
    expect(global.result_id).not.toBe(canada.result_id);
    expect((await search({ query: 'London', region: 'CA' })).result_id).toBe(canada.result_id);
  });

  it('refuses an unknown region, naming the field', async () => {
    for (const region of ['XX', 'US-ZZ', 'United States', 42]) {
      await expect(search({ query: 'London', region })).rejects.toMatchObject({
        status: 400,
        details: [expect.objectContaining({ field: 'region' })],
      });
    }
  });

  it('adds the matched place on request: the named place, its distance and, for an address, the bearing offset', async () => {
    const plain = await search({ query: 'London', limit: 1 });
    expect(Object.keys(plain.data[0]).sort()).toEqual([
      'address',
      'compass',
      'date',
      'geometry',
      'id',
      'image',
      'interactive',
    ]);
    const [london] = (await search({ query: 'London', limit: 1, include: ['place'] })).data;
    expect(london.place).toEqual({
      id: testPlaceId('london-gb'),
      kind: 'locality',
      label: 'London, England, United Kingdom',
      lat: 51.5072,
      lon: -0.1276,
      distance_m: 0,
    });
    const all = (await search({ query: 'Herrengasse 35 Vaduz', limit: 10, include: ['place'] })).data;
    const facing = all.find((d) => keyOf(d.id) === 'facing')!;
    expect(facing.place).toMatchObject({ id: testPlaceId(ADDRESS.key), kind: 'address', distance_m: 10 });
    expect(facing.place!.bearing_offset_deg).toBeLessThan(1);
    // A neighbour's record facing the address is shown with the address it faces.
    const neighbour = all.find((d) => keyOf(d.id) === 'neighbourFacing')!;
    expect(neighbour.place).toMatchObject({ id: testPlaceId(ADDRESS.key), kind: 'address' });
    expect(neighbour.place!.distance_m).toBeCloseTo(30, 0); // the sphere here, the spheroid in PostGIS
    expect(neighbour.place!.bearing_offset_deg).toBeLessThan(1);
  });
});
