import { PlaceKind, PlaceRecord, placeId } from '../place-record';
import { RegionEntry, countryName, countryOtherNames } from '../regions';
import { isLatin, spellingVariants } from './name-variants';

// What every gazetteer row shares: its source, ids from fixed source ids (so re-seeding finds the
// same rows), and the names of its region and country that find it.
export const GAZETTEER_SOURCE = 'world-gazetteer';

// Country names in these languages find a country and everything in it ("Deutschland", "Allemagne").
export const COUNTRY_NAME_LANGUAGES = [
  'en',
  'de',
  'fr',
  'es',
  'it',
  'pt',
  'nl',
  'pl',
  'sv',
  'da',
  'no',
  'fi',
  'cs',
  'tr',
] as const;

type PlaceFields = Partial<PlaceRecord> & Pick<PlaceRecord, 'kind' | 'name' | 'label' | 'lon' | 'lat' | 'importance'>;

export function gazetteerPlace(sourceId: string, fields: PlaceFields & { kind: PlaceKind }): PlaceRecord {
  return {
    id: placeId(GAZETTEER_SOURCE, sourceId),
    housenumber: null,
    street: null,
    postcode: null,
    locality: null,
    municipality: null,
    district: null,
    hierarchy: null,
    region: null,
    regionCode: null,
    countryCode: null,
    altNames: '',
    population: null,
    line: null,
    ...fields,
    source: GAZETTEER_SOURCE,
    sourceId,
  };
}

const countryNameCache = new Map<string, string[]>();
/**
 * What finds a country's places: its codes and its name in COUNTRY_NAME_LANGUAGES ("DE", "DEU",
 * "Germany", "Deutschland", "Allemagne", ...); `all` adds every other form the data knows (the
 * country's own row: "United States of America", "U.S.A.").
 */
export function countryNames(countryCode: string, all = false): string[] {
  const key = `${countryCode}:${all}`;
  let names = countryNameCache.get(key);
  if (!names) {
    const { alpha3, names: other } = countryOtherNames(countryCode, COUNTRY_NAME_LANGUAGES, all);
    const found = [countryCode, alpha3, countryName(countryCode), ...other].filter(
      (n): n is string => !!n && isLatin(n),
    );
    names = [...new Set([...found, ...found.flatMap(spellingVariants)])];
    countryNameCache.set(key, names);
  }
  return names;
}

/** "CA", "US-CA", "California", "Kalifornien", ...: what finds a region and its places. */
export function regionNames(region: RegionEntry): string[] {
  const names = [region.name, ...region.otherNames.filter(isLatin)];
  // Numeric short codes ("13" of "JP-13") would match house numbers; the full code stays.
  const codes = /[A-Z]/.test(region.shortCode) ? [region.shortCode, region.code] : [region.code];
  return [...codes, ...names, ...names.flatMap(spellingVariants)];
}
