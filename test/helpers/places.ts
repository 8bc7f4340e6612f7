import { Client } from 'pg';
import { PlaceKind, placeId } from '../../src/places/place-record';

// Places for tests, written straight into the places table as any importer leaves them (source 'test';
// the importers are tested on their own), on the test database (DATABASE_URL).
interface PlaceFields {
  kind: PlaceKind;
  name: string;
  label: string;
  lon: number;
  lat: number;
  locality?: string;
  importance?: number;
  altNames?: string;
  regionCode?: string | null;
  countryCode?: string | null;
  /** A poi's category ("amenity=restaurant"). */
  category?: string;
  /** An address's street, as the importers keep it. */
  street?: string;
}

/** A place with an id of its own. */
export type TestPlace = PlaceFields & { id: string; key?: never };
/** A place whose id is made from `key`, as an import of source 'test' would make it. */
export type KeyedTestPlace = PlaceFields & { key: string; id?: never };

export const testPlaceId = (key: string) => placeId('test', key);
const idOf = (p: TestPlace | KeyedTestPlace) => p.id ?? testPlaceId(p.key!);

export async function withClient<T>(fn: (c: Client) => Promise<T>, databaseUrl = process.env.DATABASE_URL): Promise<T> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

export function insertPlaces(places: Array<TestPlace | KeyedTestPlace>, databaseUrl?: string): Promise<void> {
  return withClient(async (c) => {
    for (const p of places) {
      await c.query(
        `INSERT INTO places (id, kind, name, label, alt_names, locality, location, importance, region_code, country_code, source, source_id, category, street)
         VALUES ($1, $2, $3, $4, $5, $6, ST_SetSRID(ST_MakePoint($7, $8), 4326), $9, $10, $11, 'test', $12, $13, $14)`,
        [
          idOf(p),
          p.kind,
          p.name,
          p.label,
          p.altNames ?? '',
          p.locality ?? null,
          p.lon,
          p.lat,
          p.importance ?? 0,
          p.regionCode ?? null,
          p.countryCode ?? null,
          p.key ?? idOf(p),
          p.category ?? null,
          p.street ?? null,
        ],
      );
    }
  }, databaseUrl);
}

// An imagery record as an import leaves it before linking: one to recover (`own` null) carries a
// stand-in address.
export function insertUnlinkedImagery(id: string, [lon, lat]: [number, number], own: string | null): Promise<void> {
  return withClient(async (c) => {
    await c.query(
      `INSERT INTO imagery (id, address, address_origin, captured_at, heading, image_url, location)
       VALUES ($1::uuid, $2, $3, '2020-05-01', 90, 'a.jpg', ST_SetSRID(ST_MakePoint($4, $5), 4326))`,
      [id, own ?? 'stand-in', own === null ? 'locality' : 'own', lon, lat],
    );
  });
}

// The places and the map's features an OpenStreetMap import kept beside them.
export function resetPlaces(): Promise<void> {
  return withClient(async (c) => {
    await c.query('TRUNCATE places, map_features');
  });
}

// Links records to places as the importer's linker would (place_id for recovered addresses,
// locality_id and the locality's codes for every record).
export function linkRecord(
  recordId: string | string[],
  link: { locality?: string; place?: string; origin?: string },
): Promise<void> {
  return withClient(async (c) => {
    await c.query(
      `UPDATE imagery i SET locality_id = l.id, region_code = l.region_code, country_code = l.country_code,
         place_id = $3, address_origin = $4
       FROM (SELECT $2::uuid AS id) x LEFT JOIN places l ON l.id = x.id
       WHERE i.id = ANY($1::uuid[])`,
      [
        [recordId].flat(),
        link.locality ? testPlaceId(link.locality) : null,
        link.place ? testPlaceId(link.place) : null,
        link.origin ?? 'own',
      ],
    );
  });
}

export interface LinkedRow {
  id: string;
  address: string;
  address_origin: string;
  place_id: string | null;
  locality_id: string | null;
  region_code: string | null;
  country_code: string | null;
}

// Every imagery row's address and links, by id.
export function linkedRows(): Promise<Map<string, LinkedRow>> {
  return withClient(async (c) => {
    const { rows } = await c.query<LinkedRow>(
      'SELECT id::text, address, address_origin, place_id::text, locality_id::text, region_code, country_code FROM imagery',
    );
    return new Map(rows.map((r) => [r.id, r]));
  });
}

const METRES_PER_DEGREE_LAT = 111_320;

// The point `east` and `north` metres from [lon, lat] (a local flat approximation: a few tenths of a
// percent off the spheroid's metres, so tests keep a margin of metres from every bound).
export function offset([lon, lat]: [number, number], east: number, north: number): [number, number] {
  return [lon + east / (METRES_PER_DEGREE_LAT * Math.cos((lat * Math.PI) / 180)), lat + north / METRES_PER_DEGREE_LAT];
}

// A small gazetteer around Vaduz: two localities, a few addresses, a street far from any address.
export const VADUZ: TestPlace = {
  id: '10000000-0000-4000-8000-000000000001',
  kind: 'locality',
  name: 'Vaduz',
  label: 'Vaduz, Liechtenstein',
  lon: 9.5215,
  lat: 47.141,
  regionCode: 'LI-11',
  countryCode: 'LI',
};
export const SCHAAN: TestPlace = {
  id: '10000000-0000-4000-8000-000000000002',
  kind: 'locality',
  name: 'Schaan',
  label: 'Schaan, Liechtenstein',
  lon: 9.5095,
  lat: 47.165,
  regionCode: 'LI-07',
  countryCode: 'LI',
};
export const BASE: [number, number] = [9.52, 47.139];
export const at = (p: [number, number]) => ({ lon: p[0], lat: p[1] });
export const STAEDTLE_1: TestPlace = {
  id: '20000000-0000-4000-8000-000000000001',
  kind: 'address',
  name: 'Städtle 1',
  label: 'Städtle 1, 9490 Vaduz',
  ...at(BASE),
};
export const STAEDTLE_5: TestPlace = {
  id: '20000000-0000-4000-8000-000000000002',
  kind: 'address',
  name: 'Städtle 5',
  label: 'Städtle 5, 9490 Vaduz',
  ...at(offset(BASE, 0, 100)),
};
export const STREET_POINT = offset(BASE, 400, 0);
export const AEULESTRASSE: TestPlace = {
  id: '30000000-0000-4000-8000-000000000001',
  kind: 'street',
  name: 'Äulestrasse',
  label: 'Äulestrasse',
  ...at(STREET_POINT),
};
// Two addresses around one point: 20 m east and 25 m north of it. In planar degrees the northern one
// is nearer (a degree of longitude is shorter here); in metres the eastern one is.
export const PAIR_POINT = offset(BASE, -1000, -1000);
export const EAST_20: TestPlace = {
  id: '20000000-0000-4000-8000-000000000003',
  kind: 'address',
  name: 'Ost 20',
  label: 'Ostweg 20, 9490 Vaduz',
  ...at(offset(PAIR_POINT, 20, 0)),
};
export const NORTH_25: TestPlace = {
  id: '20000000-0000-4000-8000-000000000004',
  kind: 'address',
  name: 'Nord 25',
  label: 'Nordweg 25, 9490 Vaduz',
  ...at(offset(PAIR_POINT, 0, 25)),
};
export const FAR: [number, number] = [9.6, 47.3];

export const GAZETTEER = [VADUZ, SCHAAN, STAEDTLE_1, STAEDTLE_5, AEULESTRASSE, EAST_20, NORTH_25];
