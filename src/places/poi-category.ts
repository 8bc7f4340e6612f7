// What kind of point of interest a place is, as an OpenStreetMap tag ("amenity=restaurant"): the
// keys whose named objects become pois (osm-tags.ts) and the category they carry. The words that
// name each category in a query come from the iD editor's presets (poi-category-terms.json, see
// src/search/query/category-query.ts).

/** The keys of a poi, in the order a category is taken from (a bakery with a cafe is shop=bakery). */
export const POI_KEYS = [
  'amenity',
  'shop',
  'tourism',
  'leisure',
  'healthcare',
  'office',
  'craft',
  'historic',
  'natural',
  'waterway',
] as const;
// The keys whose presets give the category words a query may use (category-query.ts): natural and
// waterway objects are found by their names ("Rhein", "Gafleispitz"), not by words such as "peak" or
// "Berg", which too many names and streets hold.
export const CATEGORY_KEYS = POI_KEYS.filter((key) => key !== 'natural' && key !== 'waterway');
// natural=* and waterway=* values whose named objects are no place to look for: a single plant (a
// tree named by a mapper), and a riverbank, the area of a river its line already names. Named
// ditches, drains and woods are places people know by name ("Egelgraba", "Rüttelegraben"): they are
// pois (only named objects ever are).
const NOT_POIS = new Set(['tree', 'tree_row', 'shrub', 'riverbank']);

// A tag value that names a kind of place: lower-case words joined by _ (not "yes", not a list).
const VALUE = /^[a-z0-9]+(?:_[a-z0-9]+)*$/;
const NO_KIND = new Set(['yes', 'no', 'none', 'unknown']);
export const MAX_CATEGORY_LENGTH = 100;

/** The object has a poi key (a named one is a poi). */
export function hasPoiKey(tags: Record<string, string | undefined>): boolean {
  return POI_KEYS.some((key) => tags[key] !== undefined && !NOT_POIS.has(tags[key]!));
}

/** The object's category ("amenity=restaurant"), or undefined: the first poi key with a plain value. */
export function poiCategoryOf(tags: Record<string, string | undefined>): string | undefined {
  for (const key of POI_KEYS) {
    const value = tags[key]?.split(';')[0].trim().toLowerCase();
    if (value && VALUE.test(value) && !NO_KIND.has(value) && !NOT_POIS.has(value)) return `${key}=${value}`;
  }
  return undefined;
}

// A category as a place record may give it (GeoJSON `category`): key=value, as poiCategoryOf writes it.
export const CATEGORY_SHAPE = /^[a-z][a-z0-9_:]*=[a-z0-9_]+$/;
