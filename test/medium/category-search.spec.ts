import { TestingModule } from '@nestjs/testing';
import { SearchResponseDto } from '../../src/search/dto/search-response.dto';
import { insertPlaces, KeyedTestPlace, offset, resetPlaces } from '../helpers/places';
import { startSearchService } from '../helpers/search-service';
import { feature, importFixture, resetImagery } from '../helpers/test-app';

// A query naming a category of place ("restaurant", "hotel in Vaduz", "Apotheke Vaduz", "pharmacy
// near 47.14,9.52") answers with the imagery at the pois of that category, on a real database.
const VADUZ_CENTRE: [number, number] = [9.5215, 47.141];
const FELDKIRCH_CENTRE: [number, number] = [9.598, 47.238]; // about 12 km from Vaduz
const town = (key: string, name: string, [lon, lat]: [number, number], countryCode: string): KeyedTestPlace => ({
  key,
  kind: 'locality',
  name,
  label: `${name}, Testland`,
  lon,
  lat,
  importance: 0.4,
  countryCode,
});
const poi = (key: string, name: string, category: string, [lon, lat]: [number, number]): KeyedTestPlace => ({
  key,
  kind: 'poi',
  name,
  label: `${name}, Vaduz`,
  lon,
  lat,
  importance: 0.05,
  category,
});
const LOEWEN = offset(VADUZ_CENTRE, 200, 0);
const SONNENHOF = offset(VADUZ_CENTRE, -300, 400);
const FELDKIRCH_HOTEL = offset(FELDKIRCH_CENTRE, 100, 0);
// A hotel of the neighbouring town, nearer Vaduz's centre than Vaduz's own hotel.
const SCHAAN_HOTEL = offset(VADUZ_CENTRE, 0, 250);
const PHARMACY = offset([9.52, 47.14], 100, 50);
const BANK = offset(VADUZ_CENTRE, 0, -600);
// Beside the restaurant: a cafe, and a house with an address and no category.
const CAFE = offset(LOEWEN, -30, 0);
const HOUSE = offset(LOEWEN, 0, -25);
// Two castles of Vaduz: Burg Wolfsberg nearer its centre, and Schloss Vaduz, whose other name is "Vaduz Castle".
const BURG = offset(VADUZ_CENTRE, -250, 0);
const SCHLOSS = offset(VADUZ_CENTRE, 0, 900);
// A hamlet no place is named, that addresses name (their addr:city, as OSM data spells Malbun
// "Maldun"): its hotel, an address, and a hotel of another town nearer their centre.
const STEINORT = offset(VADUZ_CENTRE, 8_000, -14_000);
const GORFION = offset(STEINORT, 200, 0);
const TURNA = offset(STEINORT, 0, 60);
const STUBI = offset(STEINORT, -200, 0);
const inSteinort = (place: KeyedTestPlace): KeyedTestPlace => ({
  ...place,
  label: `${place.name}, 9497 Steinort`,
  locality: 'Steinort',
});
const PLACES: KeyedTestPlace[] = [
  town('vaduz', 'Vaduz', VADUZ_CENTRE, 'LI'),
  town('feldkirch', 'Feldkirch', FELDKIRCH_CENTRE, 'AT'),
  poi('loewen', 'Gasthof Löwen', 'amenity=restaurant', LOEWEN),
  { ...poi('sonnenhof', 'Hotel Sonnenhof', 'tourism=hotel', SONNENHOF), locality: 'Vaduz' },
  { ...poi('schaan-hotel', 'Hotel Schaanerhof', 'tourism=hotel', SCHAAN_HOTEL), locality: 'Schaan' },
  poi('feldkirch-hotel', 'Hotel Alpina', 'tourism=hotel', FELDKIRCH_HOTEL),
  poi('pharmacy', 'Apotheke am Städtle', 'amenity=pharmacy', PHARMACY),
  poi('bank', 'Landesbank', 'amenity=bank', BANK),
  poi('cafe', 'Café Wolf', 'amenity=cafe', CAFE),
  poi('burg', 'Burg Wolfsberg', 'historic=castle', BURG),
  { ...poi('schloss', 'Schloss Vaduz', 'historic=castle', SCHLOSS), altNames: 'Hohenliechtenstein | Vaduz Castle' },
  inSteinort(poi('gorfion', 'Hotel Gorfion', 'tourism=hotel', GORFION)),
  {
    ...poi('turna', 'Hotel Turna', 'tourism=hotel', TURNA),
    label: 'Hotel Turna, 9497 Triesenberg',
    locality: 'Triesenberg',
  },
  inSteinort({ key: 'stubi', kind: 'address', name: 'Stubistrasse 4', label: '', lon: STUBI[0], lat: STUBI[1] }),
  {
    key: 'house',
    kind: 'address',
    name: 'Herrengasse 6',
    label: 'Herrengasse 6, 9490 Vaduz',
    lon: HOUSE[0],
    lat: HOUSE[1],
  },
];

describe('search by category', () => {
  let moduleRef: TestingModule;
  let search: (body: object) => Promise<SearchResponseDto>;
  const nameOf = new Map<string, string>();

  beforeAll(async () => {
    await resetImagery();
    await resetPlaces();
    await insertPlaces(PLACES);
    const records = {
      atLoewen: feature('Herrengasse 2, 9490 Vaduz', {}, offset(LOEWEN, 10, 0)),
      nearLoewen: feature('Herrengasse 4, 9490 Vaduz', {}, offset(LOEWEN, 0, 30)),
      restaurantweg: feature('Restaurantweg 5, 9490 Vaduz', {}, offset(VADUZ_CENTRE, 1_500, 0)),
      atSonnenhof: feature('Mareestrasse 29, 9490 Vaduz', {}, offset(SONNENHOF, 0, 20)),
      atSchaanHotel: feature('Landstrasse 1, 9494 Schaan', {}, offset(SCHAAN_HOTEL, 0, 10)),
      atFeldkirchHotel: feature('Marktgasse 1, 6800 Feldkirch', {}, offset(FELDKIRCH_HOTEL, 15, 0)),
      atPharmacy: feature('Städtle 20, 9490 Vaduz', {}, offset(PHARMACY, 0, 15)),
      atBank: feature('Bank Street 3, 9490 Vaduz', {}, offset(BANK, 0, 10)),
      atCafe: feature('Herrengasse 1, 9490 Vaduz', {}, offset(CAFE, -2, 0)),
      atHouse: feature('Herrengasse 6, 9490 Vaduz', {}, HOUSE),
      atBurg: feature('Burgweg 1, 9490 Vaduz', {}, offset(BURG, 5, 0)),
      atSchloss: feature('Schlossweg 1, 9490 Vaduz', {}, offset(SCHLOSS, 5, 0)),
      atGorfion: feature('Stubistrasse 2, 9497 Triesenberg', {}, offset(GORFION, 5, 0)),
      atTurna: feature('Stubistrasse 1, 9497 Triesenberg', {}, offset(TURNA, 5, 0)),
    };
    for (const [name, f] of Object.entries(records)) nameOf.set(f.id, name);
    expect((await importFixture(Object.values(records))).rejected).toBe(0);
    ({ moduleRef, search } = await startSearchService());
  });

  afterAll(async () => {
    await moduleRef?.close();
    await resetImagery();
    await resetPlaces();
  });

  const names = async (query: string) => (await search({ query, limit: 10 })).data.map((d) => nameOf.get(d.id));

  it('"restaurant" finds the imagery at restaurants, nearest the restaurant first, not an address on Restaurantweg', async () => {
    const found = await search({ query: 'restaurant', include: ['match', 'interpretation'] });
    expect(found.data.map((d) => nameOf.get(d.id))).toEqual(['atLoewen', 'nearLoewen']);
    expect(found.data[0].match).toEqual({
      kind: 'nearby',
      place: 'Gasthof Löwen, Vaduz',
      distance_m: expect.any(Number),
    });
    expect(found.data[0].match!.distance_m).toBeLessThan(15);
    expect(found.interpretation).toMatchObject({
      step: 'named-category',
      approximate: true,
      categories: ['amenity=restaurant'],
      place: { kind: 'poi', label: 'Gasthof Löwen, Vaduz' },
    });
    expect(await names('Restaurants')).toEqual(['atLoewen', 'nearLoewen']);
  });

  it("answers a category's records only: not the cafe's nor the house's beside the restaurant", async () => {
    expect(await names('restaurant in Vaduz')).toEqual(['atLoewen', 'nearLoewen']);
    expect(await names('cafe')).toEqual(['atCafe']);
  });

  it("a query that is a place's other name is that place, not a category around a town", async () => {
    const found = await search({ query: 'Vaduz Castle', include: ['interpretation'] });
    expect(found.interpretation).toMatchObject({ place: { kind: 'poi', label: 'Schloss Vaduz, Vaduz' } });
    expect(found.interpretation?.step).not.toBe('named-category');
    expect(nameOf.get(found.data[0].id)).toBe('atSchloss');
    expect(await names('castle in Vaduz')).toEqual(['atBurg', 'atSchloss']);
  });

  it('"hotel in Vaduz" finds the Vaduz hotel first, then its surroundings\', not a far town\'s', async () => {
    // The Schaan hotel stands nearer Vaduz's centre; Vaduz's own comes first all the same.
    expect(await names('hotel in Vaduz')).toEqual(['atSonnenhof', 'atSchaanHotel']);
    expect(await names('Hotels Feldkirch')).toEqual(['atFeldkirchHotel']);
  });

  it('a town only addresses name is where they lie, its own pois first', async () => {
    // No place is named Steinort; the Triesenberg hotel stands nearer its addresses' centre.
    const found = await search({ query: 'hotel in Steinort', include: ['interpretation'] });
    expect(found.data.map((d) => nameOf.get(d.id))).toEqual(['atGorfion', 'atTurna']);
    expect(found.interpretation).toMatchObject({
      step: 'named-category',
      categories: expect.arrayContaining(['tourism=hotel']),
    });
    expect(await names('Hotels Steinort')).toEqual(['atGorfion', 'atTurna']);
    // A town no address names either: the later steps run, and find no address of these words.
    expect(await names('hotel in Steinwil')).toEqual([]);
  });

  it('reads German words and a point given as coordinates', async () => {
    expect(await names('Apotheke Vaduz')).toEqual(['atPharmacy']);
    expect(await names('pharmacy near 47.14,9.52')).toEqual(['atPharmacy']);
    // Nothing within the point's radius: the later steps run (and find no address of these words).
    expect(await names('pharmacy near 47.3,9.7')).toEqual([]);
  });

  it('leaves address searches holding a category word as they were', async () => {
    expect(await names('Restaurantweg 5')).toEqual(['restaurantweg']);
    expect(await names('Bank Street 3')).toEqual(['atBank']);
    expect(await names('Herrengasse 2')).toEqual(['atLoewen']);
  });

  it('keeps the request filters and never fails on odd input', async () => {
    expect(await names('restaurant')).toHaveLength(2);
    const none = await search({ query: 'restaurant', captured_after: '2030-01-01' });
    expect(none.data).toEqual([]);
    for (const query of ['hotel in', 'hotel in ;;;', 'pharmacy near 91.5, 9', 'Apotheke in der Nähe von']) {
      await expect(search({ query })).resolves.toMatchObject({ isSuccess: true });
    }
  });
});
