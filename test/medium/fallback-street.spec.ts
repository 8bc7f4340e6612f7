import { TestingModule } from '@nestjs/testing';
import { SearchResponseDto } from '../../src/search/dto/search-response.dto';
import { insertPlaces, KeyedTestPlace, linkRecord, offset, resetPlaces } from '../helpers/places';
import { startSearchService } from '../helpers/search-service';
import { feature, importFixture, resetImagery } from '../helpers/test-app';

// The fallback by parts' street (a house number the street lacks), on a few places of real data's
// shapes (the OpenStreetMap relevance suite's misses, test/relevance/osm-queries.ts): a street's
// records nearest its point first, a street that only its addresses name, and a street the data
// spells two ways, each answered with the records of the street as the query names it.
const MAUREN: [number, number] = [9.544, 47.218];
const ESCHEN: [number, number] = [9.52, 47.207];
const SCHELLENBERG: [number, number] = [9.545, 47.232];
const STOTZ = offset(SCHELLENBERG, 200, 0);
const RING = offset(ESCHEN, 100, 0);

const town = (key: string, name: string, [lon, lat]: [number, number]): KeyedTestPlace => ({
  key,
  kind: 'locality',
  name,
  label: `${name}, Liechtenstein`,
  lon,
  lat,
  importance: 0.3,
  countryCode: 'LI',
});
const at = (key: string, kind: 'street' | 'address', label: string, [lon, lat]: [number, number], street?: string) =>
  ({ key, kind, name: label.split(',')[0], label, lon, lat, street, countryCode: 'LI' }) as KeyedTestPlace;

const PLACES: KeyedTestPlace[] = [
  town('mauren', 'Mauren', MAUREN),
  town('eschen', 'Eschen', ESCHEN),
  town('schellenberg', 'Schellenberg', SCHELLENBERG),
  // Fallsgass: addresses only, no line of that name.
  at('fallsgass-18', 'address', 'Fallsgass 18, 9493 Mauren', offset(MAUREN, 300, 0), 'Fallsgass'),
  at('stotz', 'street', 'Stotz, 9488 Schellenberg', STOTZ),
  // The line spelt Sankt, its address St.
  at('sankt-martins-ring', 'street', 'Sankt Martins-Ring, 9492 Eschen', RING),
  at('st-martins-ring-2', 'address', 'St. Martins-Ring 2, 9492 Eschen', offset(RING, 60, 30), 'St. Martins-Ring'),
];

// Each record: its address, point and links (locality, place, origin).
const RECORDS: Record<string, [string, [number, number], { locality: string; place?: string; origin: string }]> = {
  mauren: ['Mauren, Liechtenstein', MAUREN, { locality: 'mauren', origin: 'locality' }],
  fallsgass: [
    'Fallsgass 18, 9493 Mauren',
    offset(MAUREN, 302, 0),
    { locality: 'mauren', place: 'fallsgass-18', origin: 'address' },
  ],
  // Linked to the street, far from its point (a building behind it); and one at its point that
  // recovered the house of another street nearer to it.
  stotzFar: [
    'Stotz, 9488 Schellenberg',
    offset(STOTZ, 150, 20),
    { locality: 'schellenberg', place: 'stotz', origin: 'street' },
  ],
  stotzPoint: ['Kirchweg 3, 9488 Schellenberg', STOTZ, { locality: 'schellenberg', origin: 'address' }],
  ring: [
    'Sankt Martins-Ring, 9492 Eschen',
    RING,
    { locality: 'eschen', place: 'sankt-martins-ring', origin: 'street' },
  ],
  ring2: [
    'St. Martins-Ring 2, 9492 Eschen',
    offset(RING, 62, 30),
    { locality: 'eschen', place: 'st-martins-ring-2', origin: 'address' },
  ],
};

describe('fallback by parts: a number the street lacks answers the street', () => {
  let moduleRef: TestingModule;
  let search: (body: object) => Promise<SearchResponseDto>;
  const nameOf = new Map<string, string>();

  beforeAll(async () => {
    await resetImagery();
    await resetPlaces();
    await insertPlaces(PLACES);
    const features = Object.entries(RECORDS).map(([name, [address, point]]) => {
      const f = feature(address, {}, point);
      nameOf.set(f.id, name);
      return f;
    });
    expect((await importFixture(features)).rejected).toBe(0);
    for (const f of features) await linkRecord(f.id, RECORDS[nameOf.get(f.id)!][2]);
    ({ moduleRef, search } = await startSearchService());
  });

  afterAll(async () => {
    await moduleRef?.close();
    await resetImagery();
    await resetPlaces();
  });

  const answer = async (body: object) => {
    const res = await search({ limit: 5, include: ['interpretation'], ...body });
    return { first: nameOf.get(res.data[0]?.id), fallback: res.interpretation?.fallback };
  };

  it('shows the street by the records nearest its point, whatever they were linked to, before its own far off', async () => {
    expect(await answer({ query: 'Stotz 979, Schellenberg' })).toEqual({
      first: 'stotzPoint',
      fallback: { level: 'street', unmatched: ['979'] },
    });
    const structured = await answer({ address: { housenumber: '979', street: 'Stotz', city: 'Schellenberg' } });
    expect(structured.first).toBe('stotzPoint');
  });

  it('answers a street that only its addresses name with them, not with the town', async () => {
    expect(await answer({ query: 'Fallsgass 923, Mauren' })).toEqual({
      first: 'fallsgass',
      fallback: { level: 'street', unmatched: ['923'] },
    });
    const structured = await answer({ address: { housenumber: '923', street: 'Fallsgass', city: 'Mauren' } });
    expect(structured).toEqual({ first: 'fallsgass', fallback: { level: 'street', unmatched: ['923'] } });
  });

  it('answers a street the data spells two ways with the records of the spelling typed', async () => {
    expect((await answer({ query: 'St. Martins-Ring 977, Eschen' })).first).toBe('ring2');
    expect((await answer({ query: 'Sankt Martins-Ring 977, Eschen' })).first).toBe('ring');
    const structured = await answer({ address: { housenumber: '977', street: 'St. Martins-Ring', city: 'Eschen' } });
    expect(structured.first).toBe('ring2');
  });
});
