import { allCountries, allRegions, regionByCode } from '../places/regions';

// The page's region control: every country with how many first-level regions it has (one small list
// for the first select), and a country's regions fetched only when it is chosen, so the ~3,700
// regions never ride along in the bundle. Built from src/places/regions.ts, the API's own code list.

export interface RegionOption {
  code: string;
  name: string;
}

export interface CountryOption extends RegionOption {
  regions: number;
}

export interface CountryRegions extends RegionOption {
  regions: RegionOption[];
}

const byName = new Intl.Collator('en', { sensitivity: 'base' });
const sortByName = <T extends RegionOption>(list: T[]) =>
  list.sort((a, b) => byName.compare(a.name, b.name) || a.code.localeCompare(b.code));

let countries: CountryOption[] | undefined;
let regionsOf: Map<string, RegionOption[]> | undefined;

function regionsByCountry(): Map<string, RegionOption[]> {
  if (!regionsOf) {
    regionsOf = new Map();
    for (const r of allRegions()) {
      const list = regionsOf.get(r.countryCode) ?? [];
      list.push({ code: r.code, name: r.name });
      regionsOf.set(r.countryCode, list);
    }
    for (const list of regionsOf.values()) sortByName(list);
  }
  return regionsOf;
}

/** Every ISO 3166-1 country by English name, with its number of first-level regions. */
export function countryOptions(): CountryOption[] {
  countries ??= sortByName(
    allCountries().map((c) => ({ code: c.code, name: c.name, regions: regionsByCountry().get(c.code)?.length ?? 0 })),
  );
  return countries;
}

/** A country ("LI", "li") and its first-level regions by name; undefined for anything else. */
export function countryRegions(code: string): CountryRegions | undefined {
  const country = /^[A-Za-z]{2}$/.test(code) ? regionByCode(code) : undefined;
  if (!country) return undefined;
  return { code: country.code, name: country.name, regions: regionsByCountry().get(country.code) ?? [] };
}
