import { stat } from 'node:fs/promises';
import type { MapFeatureSink } from '../../map-data/map-feature';
import type { PointSetting } from '../place-area-session';
import { representativePoint } from '../place-geometry';
import type { PlaceItem } from '../place-item';
import type { RawPlace } from '../place-validation';
import { AreaSink, loadOsmAreas } from './osm-areas';
import { OsmContext } from './osm-context';
import { settlePlace } from './osm-setting';
import { interpolatedAddresses, interpolationPieces } from './osm-interpolation';
import { OSM_KEPT_TAGS, osmSourceId, OsmTags, placesFromOsm } from './osm-tags';
import { OsmiumExportConfig, osmiumExport } from './osmium-export';

export { OSMIUM_MISSING, osmiumAvailable } from './osmium-export';

// What osmium builds: lines from highway and waterway ways, areas from buildings and other closed ways
// that carry an address, a place or a name of note; only the tags placesFromOsm reads are kept, so
// other objects never leave osmium.
const EXPORT_CONFIG: OsmiumExportConfig = {
  attributes: { type: false, id: false },
  linear_tags: ['highway', 'waterway', 'addr:interpolation'],
  area_tags: [
    'building',
    'addr:housenumber',
    'amenity',
    'shop',
    'tourism',
    'leisure',
    'historic',
    'natural',
    'place',
    'boundary',
  ],
  include_tags: OSM_KEPT_TAGS,
};

/** Where the points of an import lie: the file's areas, loaded first, then asked about in chunks. */
export interface OsmAreaLookup extends AreaSink {
  lookup(points: ReadonlyArray<readonly [number, number]>): Promise<PointSetting[]>;
}

// Places asked about at once (one statement each).
const LOOKUP_CHUNK = 1000;

// An OpenStreetMap file (.osm.pbf, or .osm/.osc XML) through `osmium export`, which turns nodes, ways
// and multipolygon relations into GeoJSON features one per line; they are streamed and mapped a chunk
// at a time. With `areas`, a first pass loads the file's boundaries, places and streets into it, and
// every place is then settled in them (osm-setting.ts); that pass also reads the map's features into
// `map` when given (osm-map.ts). Positions are OSM ids ("n123", "w456", "r789").
export async function* readOsm(path: string, areas?: OsmAreaLookup, map?: MapFeatureSink): AsyncGenerator<PlaceItem> {
  await stat(path); // a missing file fails here, clearly, not inside osmium
  if (areas) await loadOsmAreas(path, areas, map);
  const context = new OsmContext();
  let chunk: Array<{ id: string; place: RawPlace; placeType?: string }> = [];
  const settle = async function* (): AsyncGenerator<PlaceItem> {
    const settings = areas ? await areas.lookup(chunk.map((c) => [c.place.lon as number, c.place.lat as number])) : [];
    for (const [i, { id, place, placeType }] of chunk.entries()) {
      if (!settlePlace(place, settings[i], context)) {
        yield { position: id, skipped: true };
        continue;
      }
      context.learn(place, placeType);
      yield { position: id, place: { ...place, id } };
    }
    chunk = [];
  };
  for await (const feature of osmiumExport(path, EXPORT_CONFIG)) {
    const id = osmSourceId(feature.id);
    const point = representativePoint(feature.geometry);
    if (!id || !point) {
      yield {
        position: id ?? `line ${feature.line}`,
        rejection: { field: 'geometry', reason: 'osmium gave no usable feature' },
      };
      continue;
    }
    const line = /LineString$/.test(feature.geometry?.type ?? '');
    const tags: OsmTags = feature.properties ?? {};
    const places = placesFromOsm(id, tags, point[0], point[1], line);
    if (id.startsWith('n')) context.rememberHouse(point[0], point[1], tags);
    else if (tags['addr:interpolation'] && feature.geometry?.type === 'LineString')
      places.push(...interpolated(id, tags, feature.geometry.coordinates, context));
    if (places.length === 0) yield { position: id, skipped: true };
    for (const { id: sourceId, place } of places) {
      if (place.kind === 'street') place.line = feature.geometry; // measured to by address recovery
      chunk.push({ id: sourceId, place, placeType: tags.place });
    }
    if (chunk.length >= LOOKUP_CHUNK) yield* settle();
  }
  yield* settle();
}

// The addresses an addr:interpolation line stands for ("<way id>:<number>"), from its numbered nodes.
function interpolated(id: string, tags: OsmTags, coordinates: unknown, context: OsmContext) {
  if (!Array.isArray(coordinates) || coordinates.length < 2) return [];
  const pieces = interpolationPieces(coordinates as Array<[number, number]>, (p) => context.houseAt(p));
  const street = tags['addr:street'] ?? tags['addr:place'];
  const seen = new Set<string>(); // a number two pieces both make (a mapping error) is kept once
  return pieces
    .flatMap((piece) => interpolatedAddresses(tags['addr:interpolation']!, piece.line, piece.first, piece.last, street))
    .filter((a) => !seen.has(a.housenumber) && seen.add(a.housenumber))
    .map((a) => ({ id: `${id}:${a.housenumber}`, place: a.place }));
}
