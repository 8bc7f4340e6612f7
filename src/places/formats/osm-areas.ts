import type { PlaceArea } from '../place-area-session';
import { PLACE_NODE_REACH_M } from '../place-area-session';
import { isStreet, OsmTags } from './osm-tags';
import { OsmiumExportConfig, osmiumExport } from './osmium-export';

// The first pass over an OpenStreetMap file: what says where its places lie (see PlaceAreaSession):
// administrative and postal boundaries, hamlets, villages and suburbs, named streets and the points
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
// Areas sent to the database at once.
const AREA_BATCH = 500;

export interface AreaSink {
  add(areas: readonly PlaceArea[]): Promise<void>;
  index(): Promise<void>;
}

const POLYGON = /Polygon$/;
const LINE = /LineString$/;

// What one OSM object says about where places lie (most objects: nothing, or one thing).
export function areasFromOsm(tags: OsmTags, geometry: { type?: string } | undefined): PlaceArea[] {
  const type = geometry?.type ?? '';
  const json = JSON.stringify(geometry);
  const area = (kind: PlaceArea['kind'], fields: Partial<PlaceArea> = {}): PlaceArea => ({
    kind,
    level: null,
    name: tags.name ?? null,
    code: null,
    postcode: null,
    placeType: null,
    geometry: json,
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
  if (tags.name && tags.place && Object.hasOwn(PLACE_NODE_REACH_M, tags.place)) {
    if (POLYGON.test(type)) out.push(area('place_area', { placeType: tags.place }));
    else if (type === 'Point') out.push(area('place_node', { placeType: tags.place }));
  }
  if (tags.name && LINE.test(type) && isStreet(tags.highway)) out.push(area('street'));
  if (tags['addr:postcode'] && !tags.boundary)
    out.push(area('postcode', { name: null, postcode: tags['addr:postcode'] }));
  return out;
}

// Reads the file's areas into `sink` and indexes them; returns how many were kept. osmium export
// leaves out every object whose tags the config does not name (most of a file).
export async function loadOsmAreas(path: string, sink: AreaSink): Promise<number> {
  let kept = 0;
  let batch: PlaceArea[] = [];
  for await (const feature of osmiumExport(path, AREA_CONFIG)) {
    if (!feature.geometry || !feature.properties) continue;
    batch.push(...areasFromOsm(feature.properties, feature.geometry));
    if (batch.length >= AREA_BATCH) {
      await sink.add(batch);
      kept += batch.length;
      batch = [];
    }
  }
  await sink.add(batch);
  await sink.index();
  return kept + batch.length;
}
