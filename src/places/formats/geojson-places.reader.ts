import { Readable } from 'node:stream';
import { readGeoJsonCollection } from '../../import-formats/geojson-collection.reader';
import { readGeoJsonSeq } from '../../import-formats/geojson-seq.reader';
import { representativePoint } from '../place-geometry';
import type { PlaceItem } from '../place-item';
import type { RawPlace } from '../place-validation';

// The properties a place Feature may have (see docs/places.md); anything else is ignored.
export const GEOJSON_PLACE_PROPERTIES = [
  'kind',
  'name',
  'housenumber',
  'street',
  'postcode',
  'locality',
  'region',
  'region_code',
  'country_code',
  'importance',
  'population',
  'alt_names',
  'names',
  'category',
  'id',
] as const;

const FIELD_NAMES = { lon: 'geometry.coordinates', lat: 'geometry.coordinates' };

export type GeoJsonLayout = 'collection' | 'seq';

// Places as GeoJSON: a FeatureCollection, or one Feature per line (NDJSON or RFC 8142), both streamed
// by the imagery importer's readers. Any geometry is taken (a line or an area stands for the point
// representativePoint finds); the source id is properties.id, else the Feature's id.
export async function* readGeoJsonPlaces(input: Readable, layout: GeoJsonLayout): AsyncGenerator<PlaceItem> {
  const features = layout === 'collection' ? readGeoJsonCollection(input) : readGeoJsonSeq(input);
  for await (const item of features) {
    if (item.rejection) yield { position: item.position, rejection: item.rejection };
    else yield { position: item.position, ...placeFromFeature(item.feature) };
  }
}

function placeFromFeature(feature: unknown): Omit<PlaceItem, 'position'> {
  const f = feature as { type?: unknown; id?: unknown; geometry?: unknown; properties?: unknown };
  if (typeof f !== 'object' || f === null || f.type !== 'Feature')
    return { rejection: { field: 'type', reason: 'must be a GeoJSON Feature' } };
  const point = representativePoint(f.geometry);
  if (!point)
    return { rejection: { field: 'geometry', reason: 'must be a GeoJSON geometry with [lon, lat] coordinates' } };
  const p = f.properties;
  if (typeof p !== 'object' || p === null || Array.isArray(p))
    return { rejection: { field: 'properties', reason: 'must be an object' } };
  const props = p as Record<string, unknown>;
  const place: RawPlace = { lon: point[0], lat: point[1] };
  for (const key of GEOJSON_PLACE_PROPERTIES) if (key !== 'id') place[key] = props[key];
  place.id = props.id ?? f.id;
  place.line = f.geometry; // a street keeps its line (place-validation.ts)
  return { place, fieldNames: FIELD_NAMES };
}

// Which layout a GeoJSON input has, from its first bytes (for standard input and names that do not
// say): an RS or a first line that is a whole Feature means one Feature per record.
export function sniffGeoJsonLayout(head: Buffer | null): GeoJsonLayout {
  if (!head) return 'collection';
  const text = head.toString('utf8').replace(/^[\uFEFF\s]+/, '');
  if (text.startsWith('\u001e')) return 'seq';
  const newline = text.indexOf('\n');
  try {
    const first = JSON.parse(newline === -1 ? text : text.slice(0, newline)) as { type?: unknown };
    return first?.type === 'Feature' ? 'seq' : 'collection';
  } catch {
    return 'collection';
  }
}
