import { isoCountries as countries } from '../../places/country-names';
import { allRegions, Region, regionByCode } from '../../places/regions';
import { regionNamedBy } from './named-region';
import { tokenize } from './tokenize';

// A structured query (`address: { housenumber, street, city, postcode, region, country }`, as
// Nominatim's and Pelias's structured endpoints take one): each part read at its own level. The
// country and region bind the search (as a region named at the end of a text query does); the
// other parts are searched as the words of an address, and the steps of a structured search
// (pipeline/structured-search.steps.ts) match the city only as a locality and the postcode only as a
// postcode, and fall back by parts as a text query does.

export const ADDRESS_PARTS = ['housenumber', 'street', 'city', 'postcode', 'region', 'country'] as const;
export type AddressPart = (typeof ADDRESS_PARTS)[number];
export type AddressParts = Partial<Record<AddressPart, string>>;

export interface StructuredQuery {
  /** The parts given, as typed (white space collapsed). */
  parts: AddressParts;
  /** The region the search keeps to: the region given, else the country; null when neither is. */
  region: Region | null;
  /** What is searched as words: the query beside the address, then street and number, postcode and city. */
  text: string;
}

const key = (text: string) => tokenize(text).join(' ');

/** The country a part names: its alpha-2 or alpha-3 code, or its name in a language known here. */
export function countryOfAddress(value: string): Region | undefined {
  const trimmed = value.trim();
  if (/^[A-Za-z]{3}$/.test(trimmed)) {
    const alpha2 = countries.alpha3ToAlpha2(trimmed.toUpperCase());
    return alpha2 === undefined ? undefined : regionByCode(alpha2);
  }
  if (/^[A-Za-z]{2}$/.test(trimmed)) return regionByCode(trimmed);
  const named = regionNamedBy(trimmed);
  return named?.kind === 'country' ? named : undefined;
}

/**
 * The first-level region a part names, in the country when one is given: its ISO 3166-2 code, its
 * code within the country ("TX"), or its name or one of its other names.
 */
export function regionOfAddress(value: string, countryCode?: string): Region | undefined {
  const trimmed = value.trim();
  const inCountry = (r: Region | undefined) =>
    r?.kind === 'region' && (countryCode === undefined || r.countryCode === countryCode) ? r : undefined;
  if (/^[A-Za-z]{2}-[A-Za-z0-9]{1,3}$/.test(trimmed)) return inCountry(regionByCode(trimmed));
  if (countryCode !== undefined && /^[A-Za-z0-9]{1,3}$/.test(trimmed)) {
    const coded = inCountry(regionByCode(`${countryCode}-${trimmed}`));
    if (coded) return coded;
  }
  const wanted = key(trimmed);
  if (!wanted) return undefined;
  const named = allRegions().filter(
    (r) =>
      (countryCode === undefined || r.countryCode === countryCode) &&
      [r.name, ...r.otherNames].some((n) => key(n) === wanted),
  );
  if (named.length === 1) return regionByCode(named[0].code);
  return named.length === 0 ? inCountry(regionNamedBy(trimmed)) : undefined;
}

/** The structured query of a request's `address` (validated: every part given is a non-empty string). */
export function readStructuredAddress(parts: AddressParts, query?: string): StructuredQuery {
  const country = parts.country === undefined ? undefined : countryOfAddress(parts.country);
  const region = parts.region === undefined ? undefined : regionOfAddress(parts.region, country?.code);
  const bound = region ?? country ?? null;
  const line = [parts.street, parts.housenumber].filter(Boolean).join(' ');
  const town = [parts.postcode, parts.city].filter(Boolean).join(' ');
  const words = [query, line, town].filter(Boolean).join(', ');
  // Only a region or country: the search is for the region itself (named-region-alone).
  return { parts, region: bound, text: words || (bound?.name ?? '') };
}
