import { OSM_PLACE_TYPE_IMPORTANCE } from '../gazetteer/place-importance';
import { MAX_ALT_NAMES_LENGTH, RawPlace } from '../place-validation';
import { ALT_NAME_SEPARATOR } from '../place-record';
import { hasPoiKey, POI_KEYS, poiCategoryOf } from '../poi-category';
import type { PlaceHierarchy } from '../place-hierarchy';
import { languageTagOf, osmNames } from '../place-names';

// Which OpenStreetMap objects become places, and how their tags fill a place:
// - address: a node, or a building/area way, with addr:housenumber; addr:street, else addr:place,
//   stands for the street ("Silum 6"); one with neither is given a street where it lies (osm-setting.ts);
// - locality: a named place=city|town|village|hamlet|suburb|quarter|neighbourhood|borough|isolated_dwelling
//   node (or area), with its population; region: place=state|province; country: place=country;
// - street: a named highway=* way, one place per way (a long street split into several ways is
//   several places, each at the middle vertex of its own way);
// - poi: a named object with a key of POI_KEYS (amenity, shop, tourism, ..., natural
//   peaks and waters, waterway rivers), its category the tag
//   (poi-category.ts). One that is also an address gives both: the address keeps the object's id,
//   the poi gets "<id>:poi".
export const LOCALITY_PLACES = [
  'city',
  'town',
  'village',
  'hamlet',
  'suburb',
  'quarter',
  'neighbourhood',
  'borough',
  'isolated_dwelling',
] as const;
// place=region is any named area (a mountain range as well): only states and provinces are regions.
const REGION_PLACES = new Set(['state', 'province']);
// highway values that are no street one could stand in.
const NOT_STREETS = new Set([
  'proposed',
  'construction',
  'abandoned',
  'razed',
  'platform',
  'bus_stop',
  'elevator',
  'services',
  'rest_area',
  'corridor',
]);
// The keys whose named objects are points of interest.
// Other names that should find a place too.
const ALT_NAME_TAGS = [
  'alt_name',
  'official_name',
  'short_name',
  'old_name',
  'loc_name',
  'int_name',
  'name:en',
  'name:de',
  'name:fr',
  'name:it',
];

// The tags osmium is asked to keep (everything else is dropped before it reaches Node).
export const OSM_KEPT_TAGS = [
  'addr:*',
  'name',
  // Its names by language (place-names.ts), also other names that find it (after ALT_NAME_TAGS).
  'name:*',
  ...ALT_NAME_TAGS,
  'place',
  'population',
  'highway',
  ...POI_KEYS,
  'postal_code',
  'ISO3166-1',
  'ISO3166-1:alpha2',
  'ISO3166-2',
  'country_code',
];

export type OsmTags = Record<string, string | undefined>;

// The places one OSM object gives (none for most objects). `line`: the object is a way drawn as a line.
export function placesFromOsm(
  sourceId: string,
  tags: OsmTags,
  lon: number,
  lat: number,
  line: boolean,
): Array<{ id: string; place: RawPlace }> {
  const out: Array<{ id: string; place: RawPlace }> = [];
  const name = tags.name;
  const country = /^[A-Za-z]{2}$/.test(tags['addr:country'] ?? '') ? tags['addr:country']!.toUpperCase() : undefined;
  const base: RawPlace = {
    lon,
    lat,
    postcode: tags['addr:postcode'] ?? tags.postal_code,
    country_code: country,
    alt_names: altNames(tags),
    names: osmNames(tags),
  };
  const address = {
    housenumber: tags['addr:housenumber'],
    street: tags['addr:street'] ?? tags['addr:place'],
    locality: tags['addr:city'],
    district: tags['addr:suburb'] ?? tags['addr:hamlet'] ?? (tags['addr:street'] ? tags['addr:place'] : undefined),
    region: tags['addr:state'] ?? tags['addr:province'],
    hierarchy: addressHierarchy(tags),
  };
  // An object that is an address and also a locality or street (a house number on a way) keeps its id
  // for the address; the other place gets "<id>:<kind>", so the two never share an id.
  const second = (kind: string) => (out.length > 0 ? `${sourceId}:${kind}` : sourceId);
  if (address.housenumber) {
    // The object's names by language are its own (a POI's, a building's), not its address's.
    out.push({ id: sourceId, place: { ...base, ...address, kind: 'address', names: undefined } });
  }
  const place = tags.place;
  if (name && place && (LOCALITY_PLACES as readonly string[]).includes(place)) {
    const population = parsePopulation(tags.population);
    out.push({
      id: second('locality'),
      place: {
        ...base,
        kind: 'locality',
        name,
        region: address.region,
        population,
        importance: population === undefined ? OSM_PLACE_TYPE_IMPORTANCE[place] : undefined,
      },
    });
  } else if (name && place === 'country') {
    const code = tags['ISO3166-1:alpha2'] ?? tags['ISO3166-1'] ?? tags.country_code;
    out.push({
      id: second('country'),
      place: { ...base, kind: 'country', name, country_code: code, population: parsePopulation(tags.population) },
    });
  } else if (name && place && REGION_PLACES.has(place)) {
    out.push({
      id: second('region'),
      place: {
        ...base,
        kind: 'region',
        name,
        region_code: tags['ISO3166-2'],
        population: parsePopulation(tags.population),
      },
    });
  } else if (name && line && isStreet(tags.highway)) {
    out.push({
      id: second('street'),
      place: { ...base, kind: 'street', name, street: name, locality: address.locality },
    });
  }
  if (name && hasPoiKey(tags) && !out.some((p) => p.place.kind !== 'address')) {
    const category = poiCategoryOf(tags);
    out.push({
      id: out.length > 0 ? `${sourceId}:poi` : sourceId,
      place: { ...base, ...address, kind: 'poi', name, category },
    });
  }
  return out;
}

// A highway=* value one could stand in.
export function isStreet(highway: string | undefined): boolean {
  return highway !== undefined && !NOT_STREETS.has(highway);
}

// The source id of an osmium export feature: osmium numbers areas 2 x way id, or 2 x relation id + 1.
export function osmSourceId(exportId: unknown): string | null {
  if (typeof exportId !== 'string') return null;
  const m = /^([nwa])(-?\d+)$/.exec(exportId);
  if (!m) return null;
  if (m[1] !== 'a') return exportId;
  const n = BigInt(m[2]);
  return n % 2n === 0n ? `w${n / 2n}` : `r${(n - 1n) / 2n}`;
}

// population as OSM writes it ("5432", "5,432", "5 432"); anything else is ignored, not rejected.
function parsePopulation(value: string | undefined): number | undefined {
  const digits = value?.replace(/[\s,.'’]/g, '');
  if (!digits || !/^\d{1,15}$/.test(digits)) return undefined;
  return Number(digits);
}

// Each other name apart (a place is named by any one of them, query-believability.ts), as many as
// fit in MAX_ALT_NAMES_LENGTH once joined.
function altNames(tags: OsmTags): string[] | undefined {
  const names: string[] = [];
  // Then its names in every other language: a place is found by any of them.
  const keys = [
    ...ALT_NAME_TAGS,
    ...Object.keys(tags).filter((k) => k.startsWith('name:') && !ALT_NAME_TAGS.includes(k) && isLanguageKey(k)),
  ];
  let length = 0;
  for (const key of keys) {
    for (const value of tags[key]?.split(';') ?? []) {
      const v = value.trim();
      if (!v || v === tags.name || names.includes(v)) continue;
      const added = (names.length > 0 ? ALT_NAME_SEPARATOR.length : 0) + v.length;
      if (length + added > MAX_ALT_NAMES_LENGTH) continue;
      names.push(v);
      length += added;
    }
  }
  return names.length > 0 ? names : undefined;
}

// What an address's own tags say of where it lies (addr:hamlet, addr:suburb...); the file's place=*
// nodes and areas fill the rest (osm-setting.ts).
function addressHierarchy(tags: OsmTags): PlaceHierarchy | undefined {
  const out: PlaceHierarchy = {};
  for (const part of ['hamlet', 'suburb', 'quarter', 'neighbourhood', 'district'] as const) {
    const v = tags[`addr:${part}`];
    if (v) out[part] = v;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

// `name:ru` is a name in a language; `name:prefix` and `name:etymology` are not.
const isLanguageKey = (key: string) => languageTagOf(key.slice('name:'.length)) !== null;
