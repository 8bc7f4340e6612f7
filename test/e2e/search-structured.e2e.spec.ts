import request from 'supertest';
import { NestExpressApplication } from '@nestjs/platform-express';
import { insertPlaces, KeyedTestPlace, linkRecord, resetPlaces } from '../helpers/places';
import { createKey, feature, importFixture, resetImagery, startApp } from '../helpers/test-app';

// Structured queries (`address: { housenumber, street, city, postcode, region, country }`) against the
// real database: each part read at its level, the fallback by parts, and a 400 naming a malformed part;
// and a name beside coordinates, searched near the point.
const LI = { countryCode: 'LI' };
const PLACES: KeyedTestPlace[] = [
  {
    key: 'vaduz',
    kind: 'locality',
    name: 'Vaduz',
    label: 'Vaduz, Liechtenstein',
    lon: 9.521,
    lat: 47.141,
    importance: 0.6,
    regionCode: 'LI-11',
    ...LI,
  },
  {
    key: 'schaan',
    kind: 'locality',
    name: 'Schaan',
    label: 'Schaan, Liechtenstein',
    lon: 9.509,
    lat: 47.165,
    importance: 0.5,
    regionCode: 'LI-07',
    ...LI,
  },
  {
    key: '9490',
    kind: 'postcode',
    name: '9490',
    label: '9490 Vaduz, Liechtenstein',
    lon: 9.522,
    lat: 47.14,
    importance: 0.3,
    regionCode: 'LI-11',
    ...LI,
  },
  {
    key: 'herrengasse',
    kind: 'street',
    name: 'Herrengasse',
    label: 'Herrengasse, 9490 Vaduz',
    lon: 9.5215,
    lat: 47.1395,
    importance: 0.2,
    regionCode: 'LI-11',
    ...LI,
  },
  // A street named like a town elsewhere: a city part is never matched as a street.
  {
    key: 'schaanweg',
    kind: 'street',
    name: 'Schaan',
    label: 'Schaan, 9490 Vaduz',
    lon: 9.524,
    lat: 47.138,
    importance: 0.2,
    regionCode: 'LI-11',
    ...LI,
  },
];
const RECORDS = [
  {
    id: '00000000-0000-4000-8000-000000000001',
    address: 'Herrengasse 35, 9490 Vaduz',
    at: [9.5215, 47.1395],
    locality: 'vaduz',
    place: 'herrengasse',
  },
  {
    id: '00000000-0000-4000-8000-000000000002',
    address: 'Herrengasse 12, 9490 Vaduz',
    at: [9.5213, 47.1397],
    locality: 'vaduz',
    place: 'herrengasse',
  },
  {
    id: '00000000-0000-4000-8000-000000000003',
    address: 'Landstrasse 1, 9494 Schaan',
    at: [9.509, 47.165],
    locality: 'schaan',
  },
  {
    id: '00000000-0000-4000-8000-000000000004',
    address: 'Schaan 4, 9490 Vaduz',
    at: [9.524, 47.138],
    locality: 'vaduz',
    place: 'schaanweg',
  },
] as const;
const [HERRENGASSE_35, HERRENGASSE_12, SCHAAN] = RECORDS.map((r) => r.id);

describe('POST /search with a structured address', () => {
  let app: NestExpressApplication;
  let key: string;
  const search = (body: object) => request(app.getHttpServer()).post('/search').set('x-api-key', key).send(body);
  const matched = (body: object) => search({ ...body, include: ['match', 'interpretation'] }).expect(200);

  beforeAll(async () => {
    await resetImagery();
    await resetPlaces();
    await insertPlaces(PLACES);
    await importFixture(RECORDS.map((r) => feature(r.address, { id: r.id }, [...r.at])));
    for (const r of RECORDS) await linkRecord(r.id, { locality: r.locality, ...('place' in r && { place: r.place }) });
    app = await startApp({ rateLimitPerMinute: 100_000 });
    key = await createKey(app);
  });
  afterAll(async () => {
    await app.close();
    await resetPlaces();
  });

  it('finds the address of every part given, as an exact match', async () => {
    const res = await matched({ address: { housenumber: '35', street: 'Herrengasse', city: 'Vaduz', country: 'LI' } });
    expect(res.body.data[0].id).toBe(HERRENGASSE_35);
    expect(res.body.data[0].match).toEqual({ kind: 'exact' });
    expect(res.body.interpretation).toMatchObject({ kind: 'text', named_region: { code: 'LI' }, approximate: false });
  });

  it('takes a country by alpha-3 code or name, and a region by code or name', async () => {
    for (const address of [
      { street: 'Herrengasse', housenumber: '35', country: 'LIE' },
      { street: 'Herrengasse', housenumber: '35', country: 'Liechtenstein' },
      { street: 'Herrengasse', housenumber: '35', region: 'LI-11' },
      { street: 'Herrengasse', housenumber: '35', region: 'Vaduz', country: 'LI' },
    ]) {
      const res = await matched({ address });
      expect({ address, first: res.body.data[0]?.id }).toEqual({ address, first: HERRENGASSE_35 });
    }
  });

  it('falls back from a house number the street lacks to the street, and says so', async () => {
    const res = await matched({ address: { housenumber: '977', street: 'Herrengasse', city: 'Vaduz' } });
    expect([HERRENGASSE_35, HERRENGASSE_12]).toContain(res.body.data[0].id);
    expect(res.body.data[0].match).toMatchObject({ kind: 'fallback_street', unmatched: ['977'] });
    expect(res.body.interpretation.fallback).toEqual({ level: 'street', unmatched: ['977'] });
  });

  it('falls back from a street the town lacks to the town, then to the postcode', async () => {
    const town = await matched({ address: { street: 'Nowhereweg', city: 'Schaan' } });
    expect(town.body.data[0].id).toBe(SCHAAN);
    expect(town.body.data[0].match.kind).toBe('fallback_locality');
    const postcode = await matched({ address: { housenumber: '3', street: 'Nowhereweg', postcode: '9490' } });
    expect(postcode.body.data[0].match.kind).toBe('fallback_postcode');
    expect(postcode.body.interpretation.fallback).toEqual({ level: 'postcode', unmatched: ['nowhereweg', '3'] });
  });

  it('matches a city only as a locality: a city no town has finds nothing, a street of its name included', async () => {
    const res = await matched({ address: { city: 'Schaan' } });
    expect(res.body.data[0].id).toBe(SCHAAN);
    expect((await matched({ address: { street: 'Herrengasse', city: 'Nendeln' } })).body.data).toEqual([]);
    expect((await matched({ address: { city: 'Vaduz', country: 'PL' } })).body.data).toEqual([]);
  });

  it('keeps to the request region: an address in another country finds nothing', async () => {
    const res = await matched({ address: { street: 'Herrengasse', country: 'LI' }, region: 'DE' });
    expect(res.body.data).toEqual([]);
  });

  it('searches a name beside coordinates near the point, and finds nothing of that name far from it', async () => {
    const near = await matched({ query: 'Herrengasse, N 47.14° E 9.52°' });
    expect([HERRENGASSE_35, HERRENGASSE_12]).toContain(near.body.data[0].id);
    expect(near.body.interpretation).toMatchObject({ kind: 'text', normalized: 'herrengasse', lat: 47.14, lon: 9.52 });
    expect(near.body.interpretation.radius_m).toBeGreaterThan(500);
    expect((await matched({ query: 'Herrengasse 46.14,8.52' })).body.data).toEqual([]);
  });

  it.each([
    [{ street: 7 }, 'address.street'],
    [{ street: '' }, 'address.street'],
    [{ street: '   ' }, 'address.street'],
    [{ city: 'x'.repeat(129) }, 'address.city'],
    [{ postcode: null }, 'address.postcode'],
    [{ housenumber: ['35'] }, 'address.housenumber'],
    [{ suburb: 'Ebenholz' }, 'address.suburb'],
    [{ country: 'Atlantis' }, 'address.country'],
    [{ country: 'XX' }, 'address.country'],
    [{ region: 'Bavaria', country: 'LI' }, 'address.region'],
    [{ region: 'ZZ-99' }, 'address.region'],
    [{}, 'address'],
  ])('%j is a 400 naming %s', async (address, field) => {
    const res = await search({ address }).expect(400);
    expect(res.body.error.details[0].field).toBe(field);
    expect(res.body.error.message).toContain(field.split('.').pop());
  });

  it('refuses an address that is no object', async () => {
    for (const address of ['Herrengasse 35', [], null]) {
      const res = await search({ address }).expect(400);
      expect(res.body.error.details[0].field).toBe('address');
    }
  });
});
