import type { MapFeature, MapLayer } from '../../map-data/map-feature';
import { isStreet, OsmTags } from './osm-tags';

// What an OpenStreetMap object draws on the service's own map (map_features, docs/map-tiles.md): its
// layer and class as the tile contract names them, and the zoom from which it is drawn. Most objects
// draw nothing. Areas also get a zoom from their size when they are stored (map-geometry-session.ts).

// The tags the map reads, beyond what the first pass of an import keeps anyway (osm-areas.ts).
export const MAP_TAGS = ['highway', 'waterway', 'water', 'natural', 'landuse', 'leisure', 'building', 'amenity'];
// Closed ways and multipolygons with these tags are areas.
export const MAP_AREA_TAGS = ['building', 'landuse', 'natural', 'leisure', 'amenity', 'water'];

// highway=* of the streets layer, by class (a *_link joins its road); other street values are "other".
const STREET_CLASSES: Readonly<Record<string, [string, number]>> = {
  motorway: ['motorway', 5],
  trunk: ['trunk', 6],
  primary: ['primary', 8],
  secondary: ['secondary', 9],
  tertiary: ['tertiary', 10],
  unclassified: ['residential', 12],
  residential: ['residential', 12],
  living_street: ['residential', 12],
  service: ['service', 14],
};
const PATH_CLASSES: Readonly<Record<string, [string, number]>> = {
  footway: ['footway', 14],
  cycleway: ['cycleway', 13],
  path: ['path', 14],
  bridleway: ['path', 14],
  track: ['track', 13],
  steps: ['steps', 15],
  pedestrian: ['pedestrian', 13],
};
const WATER_LINES: Readonly<Record<string, [string, number]>> = {
  river: ['river', 8],
  canal: ['canal', 11],
  stream: ['stream', 13],
  ditch: ['stream', 14],
  drain: ['stream', 14],
};
const LANDUSE_CLASSES: Readonly<Record<string, string>> = {
  'leisure=park': 'park',
  'leisure=garden': 'park',
  'leisure=playground': 'park',
  'landuse=recreation_ground': 'park',
  'landuse=forest': 'forest',
  'natural=wood': 'forest',
  'landuse=grass': 'grass',
  'landuse=meadow': 'grass',
  'landuse=village_green': 'grass',
  'natural=grassland': 'grass',
  'landuse=residential': 'residential',
  'landuse=industrial': 'industrial',
  'landuse=commercial': 'commercial',
  'landuse=retail': 'commercial',
  'landuse=farmland': 'farmland',
  'landuse=farmyard': 'farmland',
  'landuse=orchard': 'farmland',
  'landuse=vineyard': 'farmland',
  'landuse=cemetery': 'cemetery',
  'amenity=grave_yard': 'cemetery',
};
// Areas are drawn from zoom 6 at the earliest, buildings from 14.
const AREA_MIN_ZOOM = 6;
const BUILDING_MIN_ZOOM = 14;

const LINE = /LineString$/;
const POLYGON = /Polygon$/;

// The map features of one object: usually none, at most one per layer it belongs to.
export function mapFeaturesFromOsm(tags: OsmTags, geometry: { type?: string } | undefined): MapFeature[] {
  const type = geometry?.type ?? '';
  const line = LINE.test(type);
  const area = POLYGON.test(type);
  if (!line && !area) return [];
  const name = tags.name ?? null;
  const out: MapFeature[] = [];
  const add = (layer: MapLayer, [cls, minZoom]: [string, number]) =>
    out.push({ layer, class: cls, name, minZoom, geometry: JSON.stringify(geometry) });
  if (line && tags.highway) {
    const highway = tags.highway.replace(/_link$/, '');
    const path = PATH_CLASSES[highway];
    if (path) add('paths', path);
    else if (isStreet(tags.highway)) add('streets', STREET_CLASSES[highway] ?? ['other', 13]);
  }
  if (line && tags.waterway && WATER_LINES[tags.waterway]) add('water', WATER_LINES[tags.waterway]);
  if (!area) return out;
  const water = waterClass(tags);
  if (water) add('water', [water, AREA_MIN_ZOOM]);
  const landuse = landuseClass(tags);
  if (landuse) add('landuse', [landuse, AREA_MIN_ZOOM]);
  if (tags.building && tags.building !== 'no') add('buildings', ['building', BUILDING_MIN_ZOOM]);
  return out;
}

function waterClass(tags: OsmTags): string | undefined {
  if (tags.waterway === 'riverbank') return 'river';
  if (tags.natural === 'water' || tags.landuse === 'reservoir' || tags.landuse === 'basin') {
    if (tags.water === 'lake' || tags.water === 'reservoir' || tags.landuse === 'reservoir') return 'lake';
    if (tags.water === 'river' || tags.water === 'canal' || tags.water === 'stream') return tags.water;
    return 'water';
  }
  return undefined;
}

function landuseClass(tags: OsmTags): string | undefined {
  for (const key of ['leisure', 'landuse', 'natural', 'amenity']) {
    const cls = tags[key] === undefined ? undefined : LANDUSE_CLASSES[`${key}=${tags[key]}`];
    if (cls) return cls;
  }
  if (tags.landuse && tags.landuse !== 'reservoir' && tags.landuse !== 'basin') return 'other';
  return undefined;
}
