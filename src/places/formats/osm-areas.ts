import type { PlaceArea } from '../place-area-session';
import { HIERARCHY_PART_OF } from '../place-hierarchy';
import { isStreet, OsmTags } from './osm-tags';
import type { MapFeature, MapFeatureSink } from '../../map-data/map-feature';
import { MAP_AREA_TAGS, MAP_TAGS, mapFeaturesFromOsm } from './osm-map';
import { OsmiumExportConfig, osmiumExport } from './osmium-export';

// The first pass over an OpenStreetMap file: what says where its places lie (see PlaceAreaSession):
// administrative and postal boundaries, the place=* nodes and areas of the hierarchy (hamlets,
// villages, suburbs, towns...), named streets and the points
// that carry a postcode.
const AREA_CONFIG: OsmiumExportConfig = {
  attributes: { type: false, id: false },
  linear_tags: ['highway'],
  area_tags: ['boundary', 'place', 'addr:postcode'],
  include_tags: [
    'boundary',
    'admin_level',
    'name',
    'place',
    'highway',
    'postal_code',
    'addr:postcode',
    'ISO3166-1',
    'ISO3166-1:alpha2',
    'ISO3166-2',
  ],
};
// With the map's features as well (`map`): what the map draws is read in the same pass (osm-map.ts).
// The objects it adds give no area (areasFromOsm reads only the tags above), so the areas are the same.
const AREA_AND_MAP_CONFIG: OsmiumExportConfig = {
  attributes: AREA_CONFIG.attributes,
  linear_tags: [...AREA_CONFIG.linear_tags, 'waterway'],
  area_tags: [...AREA_CONFIG.area_tags, ...MAP_AREA_TAGS],
  include_tags: [...new Set([...AREA_CONFIG.include_tags, ...MAP_TAGS])],
};
// Areas sent to the database at once.
const AREA_BATCH = 500;
// Map features sent at once (fewer round trips; a batch is about 1 MB of GeoJSON).
const MAP_BATCH = 2000;

export interface AreaSink {
  add(areas: readonly PlaceArea[]): Promise<void>;
  index(): Promise<void>;
}

const POLYGON = /Polygon$/;
const LINE = /LineString$/;

// What one OSM object says about where places lie (most objects: nothing, or one thing).
export function areasFromOsm(tags: OsmTags, geometry: { type?: string } | undefined): PlaceArea[] {
  const type = geometry?.type ?? '';
  // Written only for an object that gives an area: with the map's features, most give none.
  let json: string | undefined;
  const area = (kind: PlaceArea['kind'], fields: Partial<PlaceArea> = {}): PlaceArea => ({
    kind,
    level: null,
    name: tags.name ?? null,
    code: null,
    postcode: null,
    placeType: null,
    geometry: (json ??= JSON.stringify(geometry)),
    ...fields,
  });
  const out: PlaceArea[] = [];
  const level = /^\d{1,2}$/.test(tags.admin_level ?? '') ? Number(tags.admin_level) : null;
  if (POLYGON.test(type) && tags.boundary === 'administrative' && tags.name && level !== null) {
    // A country's code at level 2, a region's at level 4 (ISO 3166), as the place validation reads them.
    const code =
      level === 2
        ? (tags['ISO3166-1:alpha2'] ?? tags['ISO3166-1'])?.toUpperCase()
        : level === 4
          ? tags['ISO3166-2']?.toUpperCase()
          : undefined;
    const valid = level === 2 ? /^[A-Z]{2}$/.test(code ?? '') : /^[A-Z]{2}-[A-Z0-9]{1,3}$/.test(code ?? '');
    out.push(area('admin', { level, code: valid ? code! : null }));
  }
  const postcode = tags.postal_code ?? (tags.boundary === 'postal_code' ? tags.name : undefined);
  if (POLYGON.test(type) && tags.boundary === 'postal_code' && postcode) out.push(area('postal', { postcode }));
  if (tags.name && tags.place && Object.hasOwn(HIERARCHY_PART_OF, tags.place)) {
    if (POLYGON.test(type)) out.push(area('place_area', { placeType: tags.place }));
    else if (type === 'Point') out.push(area('place_node', { placeType: tags.place }));
  }
  if (tags.name && LINE.test(type) && isStreet(tags.highway)) out.push(area('street'));
  if (tags['addr:postcode'] && !tags.boundary)
    out.push(area('postcode', { name: null, postcode: tags['addr:postcode'] }));
  return out;
}

// Reads the file's areas into `sink` and indexes them, and the map's features into `map` when given;
// returns how many areas were kept. osmium export leaves out every object whose tags the config does
// not name (most of a file).
export async function loadOsmAreas(path: string, sink: AreaSink, map?: MapFeatureSink): Promise<number> {
  let kept = 0;
  let batch: PlaceArea[] = [];
  let drawn: MapFeature[] = [];
  for await (const feature of osmiumExport(path, map ? AREA_AND_MAP_CONFIG : AREA_CONFIG)) {
    if (!feature.geometry || !feature.properties) continue;
    batch.push(...areasFromOsm(feature.properties, feature.geometry));
    if (map) drawn.push(...mapFeaturesFromOsm(feature.properties, feature.geometry));
    if (batch.length >= AREA_BATCH) {
      await sink.add(batch);
      kept += batch.length;
      batch = [];
    }
    if (drawn.length >= MAP_BATCH) {
      await map!.add(drawn); // one batch in flight on the map's own connection while the file is read on
      drawn = [];
    }
  }
  await sink.add(batch);
  await map?.add(drawn); // written while the places are read; MapGeometrySession.finish waits for it
  await sink.index();
  return kept + batch.length;
}
