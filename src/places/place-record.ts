import { v5 as uuidv5 } from 'uuid';
import type { PlaceHierarchy } from './place-hierarchy';
import type { PlaceNames } from './place-names';

// One row of the places table, as readers (OSM PBF, OpenAddresses CSV, GeoJSON) and the built-in
// world gazetteer produce it. `id` is derived from (source, sourceId), so re-imports are idempotent.
export const PLACE_KINDS = ['country', 'region', 'locality', 'postcode', 'street', 'address', 'poi'] as const;
export type PlaceKind = (typeof PLACE_KINDS)[number];

export interface PlaceRecord {
  id: string;
  kind: PlaceKind;
  name: string;
  housenumber: string | null;
  street: string | null;
  postcode: string | null;
  locality: string | null;
  /** The municipality it lies in (OSM: the admin_level 8 boundary), where known. */
  municipality: string | null;
  /** The hamlet, village or suburb it belongs to, where known and not its locality. */
  district: string | null;
  /** The places it lies in by kind (place-hierarchy.ts), where known. */
  hierarchy: PlaceHierarchy | null;
  region: string | null;
  /** ISO 3166-2 ("US-CA"), where known. */
  regionCode: string | null;
  /** ISO 3166-1 alpha-2, upper case ("LI"), where known. */
  countryCode: string | null;
  /** How the place is shown: an address formatted the way its country writes it, or "Name, Region, Country". */
  label: string;
  /** Other names that should find it (alternative spellings, region and country names and codes), separated by ALT_NAME_SEPARATOR. */
  altNames: string;
  lon: number;
  lat: number;
  /** A street's line as GeoJSON (LineString or MultiLineString), where the source has it. */
  line: string | null;
  /** 0..1: how much the place matters when names collide. */
  importance: number;
  population: number | null;
  /** A poi's category as an OSM tag ("amenity=restaurant"); absent or null for other places. */
  category?: string | null;
  /** Its names by language (place-names.ts), where known. */
  names?: PlaceNames | null;
  source: string;
  sourceId: string;
}

// Between alternative names in alt_names: full text ignores it, and search tells the names apart by it
// (a query that is one of a place's other names means the place; one word of a longer one does not).
export const ALT_NAME_SEPARATOR = ' | ';

const PLACE_ID_NAMESPACE = '0b8f3c1e-6a2d-4f7b-9c5e-3d1a8e7f2b64';

export function placeId(source: string, sourceId: string): string {
  return uuidv5(`${source}\u0000${sourceId}`, PLACE_ID_NAMESPACE);
}
