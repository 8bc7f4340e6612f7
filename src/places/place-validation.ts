import { MAX_ADDRESS_LENGTH } from '../import-formats/record-limits';
import { Rejection } from '../import-formats/rejection';
import { streetLine } from './place-geometry';
import { contentId, derivedName } from './place-identity';
import { placeLabel } from './place-label';
import { ALT_NAME_SEPARATOR, PLACE_KINDS, PlaceKind, PlaceRecord, placeId } from './place-record';
import { countryNames, regionNames } from './gazetteer/gazetteer-place';
import { joinAltNames } from './gazetteer/name-variants';
import {
  ADDRESS_IMPORTANCE,
  COUNTRY_IMPORTANCE,
  importanceFromPopulation,
  LOCALITY_IMPORTANCE,
  POI_IMPORTANCE,
  POSTCODE_IMPORTANCE,
  REGION_IMPORTANCE,
  STREET_IMPORTANCE,
} from './gazetteer/place-importance';
import { regionByCode, regionEntry } from './regions';
import { CATEGORY_SHAPE, MAX_CATEGORY_LENGTH } from './poi-category';
import { hierarchyOf, PlaceHierarchy } from './place-hierarchy';
import { placeNamesOf } from './place-names';

// One place as a reader found it, before validation: the documented GeoJSON property names, so a
// rejection names the field the file has. Readers that map other names (OpenStreetMap tags,
// OpenAddresses columns) fill these.
export interface RawPlace {
  kind?: unknown;
  name?: unknown;
  housenumber?: unknown;
  street?: unknown;
  postcode?: unknown;
  locality?: unknown;
  municipality?: unknown;
  district?: unknown;
  /** The places it lies in by kind ({"hamlet": "Silum"}, place-hierarchy.ts). */
  hierarchy?: unknown;
  region?: unknown;
  region_code?: unknown;
  country_code?: unknown;
  importance?: unknown;
  population?: unknown;
  /** A string, or an array of strings (joined with spaces). */
  alt_names?: unknown;
  /** A poi's category as an OSM tag ("amenity=restaurant", poi-category.ts). */
  category?: unknown;
  /** Its names by language ({"de": "Köln"}, place-names.ts). */
  names?: unknown;
  /** The place's id in its source; a hash of the content when absent. */
  id?: unknown;
  lon?: unknown;
  lat?: unknown;
  /** A street's line (GeoJSON LineString or MultiLineString); kept for streets only, dropped when unusable. */
  line?: unknown;
}

export type PlaceResult = { ok: true; place: PlaceRecord } | { ok: false; rejection: Rejection };

export interface PlaceDefaults {
  source: string;
  /** ISO 3166-1 alpha-2 for places whose record names no country (--country). */
  countryCode?: string | null;
}

// Bounds on every text column; the label shares the imagery address's bound, since it becomes one.
export const MAX_NAME_LENGTH = 300;
export const MAX_HOUSENUMBER_LENGTH = 50;
export const MAX_POSTCODE_LENGTH = 20;
export const MAX_ALT_NAMES_LENGTH = 2000;
export const MAX_SOURCE_ID_LENGTH = 200;
export const MAX_LABEL_LENGTH = MAX_ADDRESS_LENGTH;
const COUNTRY_CODE = /^[A-Z]{2}$/;
const REGION_CODE = /^[A-Z]{2}-[A-Z0-9]{1,3}$/;
// eslint-disable-next-line no-control-regex -- control characters are what this removes (all but tab and newline)
const CONTROL_CHARS = /[\u0000-\u0008\u000b-\u001f\u007f]/g;

// How much a place matters when it has no population of its own and its record gives no importance
// (the numbers live in gazetteer/place-importance.ts, with the world gazetteer's; the population
// formula is importanceFromPopulation there).
const KIND_IMPORTANCE: Record<PlaceKind, number> = {
  country: COUNTRY_IMPORTANCE,
  region: REGION_IMPORTANCE,
  locality: LOCALITY_IMPORTANCE,
  postcode: POSTCODE_IMPORTANCE,
  street: STREET_IMPORTANCE,
  poi: POI_IMPORTANCE,
  address: ADDRESS_IMPORTANCE,
};
// Areas are also found by the names and codes of their region and country, as the world gazetteer's
// are ("Vaduz LI", "Springfield Illinois"); addresses, streets and points of interest are not (every
// one of a country's addresses would match its name).
const AREA_KINDS: ReadonlySet<PlaceKind> = new Set(['country', 'region', 'locality', 'postcode']);

const reject = (field: string, reason: string): PlaceResult => ({ ok: false, rejection: { field, reason } });

type Text = { value: string | null } | { problem: string };

// A text field: trimmed, control characters dropped, empty means absent; numbers are taken as text
// (house numbers and postcodes are often written as numbers).
function text(value: unknown, max: number): Text {
  if (value === undefined || value === null) return { value: null };
  if (typeof value === 'number' && Number.isFinite(value)) value = String(value);
  if (typeof value !== 'string') return { problem: 'must be a string' };
  const clean = value.replace(CONTROL_CHARS, '').replace(/\s+/g, ' ').trim();
  if (clean.length > max) return { problem: `must be at most ${max} characters` };
  return { value: clean === '' ? null : clean };
}

// The first problem found in a record: thrown by the checks below, answered as a rejection.
class FieldProblem extends Error {
  constructor(
    readonly field: string,
    readonly reason: string,
  ) {
    super(`${field} ${reason}`);
  }
}

const fail = (field: string, reason: string): never => {
  throw new FieldProblem(field, reason);
};

// The rules every place obeys, whatever format it came in; returns the record or the first problem.
export function validatePlace(raw: RawPlace, defaults: PlaceDefaults): PlaceResult {
  try {
    return { ok: true, place: placeOf(raw, defaults) };
  } catch (error) {
    if (error instanceof FieldProblem) return reject(error.field, error.reason);
    throw error;
  }
}

function placeOf(raw: RawPlace, defaults: PlaceDefaults): PlaceRecord {
  const kind = kindOf(raw);
  const { lon, lat } = positionOf(raw);
  const { housenumber, street, postcode, locality, municipality, district, region, name: given } = textFieldsOf(raw);
  // The same name twice says nothing more ("Silum 6, Silum" for an addr:place address).
  const localityOrNull = locality !== null && locality === street && kind === 'address' ? null : locality;
  const codes = codesOf(raw);
  const countryCode = codes.country ?? defaults.countryCode ?? codes.region?.slice(0, 2) ?? null;
  // A region given only by its code is named from it ("US-IL": Illinois).
  const regionName = region ?? (codes.region ? (regionByCode(codes.region)?.name ?? null) : null);
  if (kind === 'address') {
    if (housenumber === null) fail('housenumber', 'is required for an address');
    if (street === null && localityOrNull === null) fail('street', 'an address needs a street or a locality');
  }
  const name = given ?? derivedName(kind, housenumber, street, postcode) ?? fail('name', `is required for a ${kind}`);
  const { population, importance } = importanceOf(raw, kind);
  const altNames = altNamesOf(raw);
  const category = categoryOf(raw);
  const names = placeNamesOf(raw.names);
  if ('problem' in names) fail('names', names.problem);
  const parts = {
    kind,
    name,
    housenumber,
    street,
    postcode,
    locality: localityOrNull,
    municipality,
    // A district that is the locality (or the street, for an addr:place address) says nothing more.
    district: district !== null && district !== localityOrNull && district !== street ? district : null,
    hierarchy: hierarchyOf(raw.hierarchy, MAX_NAME_LENGTH),
    region: regionName,
    regionCode: codes.region,
    countryCode,
  };
  const label = placeLabel(parts);
  if (label.length > MAX_LABEL_LENGTH) fail('name', `makes a label longer than ${MAX_LABEL_LENGTH} characters`);
  const entry = AREA_KINDS.has(kind) && codes.region ? regionEntry(codes.region) : undefined;
  const areaNames = AREA_KINDS.has(kind)
    ? [...(entry ? regionNames(entry) : []), ...(countryCode ? countryNames(countryCode) : [])]
    : [];
  const sourceId = sourceIdOf(raw, parts, lon, lat);
  return {
    id: placeId(defaults.source, sourceId),
    ...parts,
    label,
    altNames: joinAltNames(label, [altNames, ...areaNames]),
    lon,
    lat,
    line: kind === 'street' ? streetLine(raw.line) : null,
    importance,
    population,
    category,
    names: 'value' in names ? names.value : null,
    source: defaults.source,
    sourceId,
  };
}

function kindOf(raw: RawPlace): PlaceKind {
  if (typeof raw.kind !== 'string' || !(PLACE_KINDS as readonly string[]).includes(raw.kind)) {
    return fail('kind', `is required and must be one of ${PLACE_KINDS.join(', ')}`);
  }
  return raw.kind as PlaceKind;
}

function positionOf(raw: RawPlace): { lon: number; lat: number } {
  const { lon, lat } = raw;
  if (typeof lon !== 'number' || !Number.isFinite(lon))
    return fail('lon', 'longitude is required and must be a number');
  if (lon < -180 || lon > 180) fail('lon', 'longitude must be between -180 and 180');
  if (typeof lat !== 'number' || !Number.isFinite(lat)) return fail('lat', 'latitude is required and must be a number');
  if (lat < -90 || lat > 90) fail('lat', 'latitude must be between -90 and 90');
  return { lon, lat };
}

const TEXT_BOUNDS = {
  name: MAX_NAME_LENGTH,
  housenumber: MAX_HOUSENUMBER_LENGTH,
  street: MAX_NAME_LENGTH,
  postcode: MAX_POSTCODE_LENGTH,
  locality: MAX_NAME_LENGTH,
  municipality: MAX_NAME_LENGTH,
  district: MAX_NAME_LENGTH,
  region: MAX_NAME_LENGTH,
};

function textOf(value: unknown, max: number, field: string): string | null {
  const t = text(value, max);
  return 'problem' in t ? fail(field, t.problem) : t.value;
}

function textFieldsOf(raw: RawPlace): Record<keyof typeof TEXT_BOUNDS, string | null> {
  const fields = {} as Record<keyof typeof TEXT_BOUNDS, string | null>;
  for (const [field, max] of Object.entries(TEXT_BOUNDS) as Array<[keyof typeof TEXT_BOUNDS, number]>) {
    fields[field] = textOf(raw[field], max, field);
  }
  return fields;
}

function codesOf(raw: RawPlace): { country: string | null; region: string | null } {
  const codes: { country: string | null; region: string | null } = { country: null, region: null };
  for (const [field, pattern, key, example] of [
    ['country_code', COUNTRY_CODE, 'country', 'LI'],
    ['region_code', REGION_CODE, 'region', 'US-CA'],
  ] as const) {
    const given = textOf(raw[field], 10, field);
    const code = given?.toUpperCase() ?? null;
    if (code !== null && !pattern.test(code))
      fail(field, `must be an ISO 3166 code like "${example}", got ${JSON.stringify(given)}`);
    codes[key] = code;
  }
  return codes;
}

function importanceOf(raw: RawPlace, kind: PlaceKind): { population: number | null; importance: number } {
  let population: number | null = null;
  if (raw.population !== undefined && raw.population !== null) {
    if (typeof raw.population !== 'number' || !Number.isSafeInteger(raw.population) || raw.population < 0) {
      fail('population', 'must be a whole number of at least 0');
    }
    population = raw.population as number;
  }
  if (raw.importance !== undefined && raw.importance !== null) {
    if (typeof raw.importance !== 'number' || !(raw.importance >= 0 && raw.importance <= 1))
      fail('importance', 'must be a number from 0 to 1');
    return { population, importance: raw.importance as number };
  }
  // A country or region matters at least as its kind does, however few live there.
  const floor = kind === 'country' || kind === 'region' ? KIND_IMPORTANCE[kind] : 0;
  const importance =
    population !== null ? Math.max(floor, importanceFromPopulation(population)) : KIND_IMPORTANCE[kind];
  return { population, importance };
}

function altNamesOf(raw: RawPlace): string | null {
  const alt =
    Array.isArray(raw.alt_names) && raw.alt_names.every((a) => typeof a === 'string')
      ? raw.alt_names.join(ALT_NAME_SEPARATOR)
      : raw.alt_names;
  const t = text(alt, MAX_ALT_NAMES_LENGTH);
  return 'problem' in t ? fail('alt_names', `${t.problem} (or an array of strings)`) : t.value;
}

function categoryOf(raw: RawPlace): string | null {
  const category = textOf(raw.category, MAX_CATEGORY_LENGTH, 'category');
  if (category !== null && !CATEGORY_SHAPE.test(category))
    fail('category', `must be an OpenStreetMap tag like "amenity=restaurant", got ${JSON.stringify(category)}`);
  return category;
}

function sourceIdOf(
  raw: RawPlace,
  parts: { municipality: string | null; district: string | null; hierarchy: PlaceHierarchy | null },
  lon: number,
  lat: number,
): string {
  if (raw.id === undefined || raw.id === null || raw.id === '') return contentId(parts, lon, lat);
  return textOf(raw.id, MAX_SOURCE_ID_LENGTH, 'id') ?? fail('id', 'must not be blank');
}
