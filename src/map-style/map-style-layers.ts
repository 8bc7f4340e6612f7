import type { LayerSpecification } from '@maplibre/maplibre-gl-style-spec';
import { COLORS } from './map-style-colors';

// The layers drawn from the service's vector tiles (layer and attribute names per the tiles contract,
// docs/map-tiles.md#layers): landuse, water, buildings, paths and streets, and the labels: street names
// along the streets, water names, and places thinned by their `min_zoom` and placed by `rank`. The
// imagery's layers are in coverage-layers.ts.

export const LABEL_FONT = 'Noto Sans Regular';
export const PLACE_FONT = 'Noto Sans Medium';
export const VIEW_ICON = 'coverage-view';

// Expressions are checked by MapLibre's own validator (test/unit/map-style.spec.ts), not by the types.
export type Expression = unknown[];
export const asLayers = (layers: object[]) => layers as LayerSpecification[];
export const tile = (layer: string) => ({ source: 'tiles', 'source-layer': layer });
const byZoom = (...stops: unknown[]): Expression =>
  ['interpolate', ['exponential', 1.6], ['zoom'], ...stops] as Expression;
const isPolygon: Expression = ['==', ['geometry-type'], 'Polygon'];
const isLine: Expression = ['==', ['geometry-type'], 'LineString'];

const LANDUSE = [
  'match',
  ['get', 'class'],
  ['park', 'cemetery'],
  COLORS.park,
  'forest',
  COLORS.wood,
  ['grass'],
  COLORS.grass,
  'farmland',
  COLORS.farmland,
  'residential',
  COLORS.residential,
  'industrial',
  COLORS.industrial,
  'commercial',
  COLORS.commercial,
  'transparent',
] as Expression;

// Street width in pixels by class at a zoom: motorways from the region view, residential streets from
// the town view, service roads from the street view.
const streetWidth = (scale: number): Expression => {
  const at = (motorway: number, major: number, tertiary: number, minor: number, service: number) =>
    [
      'match',
      ['get', 'class'],
      ['motorway', 'trunk'],
      motorway * scale,
      ['primary', 'secondary'],
      major * scale,
      'tertiary',
      tertiary * scale,
      'service',
      service * scale,
      minor * scale,
    ] as Expression;
  return byZoom(
    6,
    at(0.6, 0.3, 0, 0, 0),
    10,
    at(2, 1.2, 0.6, 0.3, 0),
    13,
    at(4, 3, 2, 1.2, 0.4),
    16,
    at(10, 8, 7, 5, 2.5),
    18,
    at(22, 18, 16, 12, 6),
    20,
    at(60, 50, 44, 34, 18),
  );
};
const STREET_RANK = [
  'match',
  ['get', 'class'],
  ['motorway', 'trunk'],
  5,
  ['primary', 'secondary'],
  4,
  'tertiary',
  3,
  'service',
  1,
  2,
] as Expression;
const STREET_COLOR = [
  'match',
  ['get', 'class'],
  ['motorway', 'trunk'],
  COLORS.highway,
  ['primary', 'secondary', 'tertiary'],
  COLORS.major,
  'service',
  COLORS.service,
  COLORS.minor,
] as Expression;

export function tileLayers(): LayerSpecification[] {
  return asLayers([
    { id: 'landuse', type: 'fill', ...tile('landuse'), paint: { 'fill-color': LANDUSE, 'fill-opacity': 0.9 } },
    { id: 'water-areas', type: 'fill', ...tile('water'), filter: isPolygon, paint: { 'fill-color': COLORS.water } },
    {
      id: 'water-lines',
      type: 'line',
      ...tile('water'),
      filter: isLine,
      paint: {
        'line-color': COLORS.water,
        'line-width': byZoom(
          8,
          ['match', ['get', 'class'], 'river', 1, 0.3],
          14,
          ['match', ['get', 'class'], 'river', 6, 2],
          18,
          ['match', ['get', 'class'], 'river', 20, 6],
        ),
      },
    },
    {
      id: 'buildings',
      type: 'fill',
      ...tile('buildings'),
      minzoom: 14,
      paint: { 'fill-color': COLORS.buildings, 'fill-outline-color': COLORS.buildingLine },
    },
    {
      id: 'paths',
      type: 'line',
      ...tile('paths'),
      minzoom: 14,
      paint: {
        'line-color': COLORS.path,
        'line-width': byZoom(14, 0.8, 18, 2, 20, 4),
        'line-dasharray': [3, 2],
      },
    },
    {
      id: 'street-casings',
      type: 'line',
      ...tile('streets'),
      minzoom: 12,
      layout: { 'line-cap': 'round', 'line-join': 'round', 'line-sort-key': STREET_RANK },
      paint: {
        'line-color': COLORS.casing,
        'line-gap-width': streetWidth(1),
        'line-width': byZoom(12, 0.5, 16, 1.2, 20, 2.5),
      },
    },
    {
      id: 'streets',
      type: 'line',
      ...tile('streets'),
      layout: { 'line-cap': 'round', 'line-join': 'round', 'line-sort-key': STREET_RANK },
      paint: { 'line-color': STREET_COLOR, 'line-width': streetWidth(1) },
    },
  ]);
}

// Labels from the tiles. Countries and states are named by Natural Earth, streets along their lines.
export function tileLabelLayers(): LayerSpecification[] {
  const halo = { 'text-halo-color': COLORS.halo, 'text-halo-width': 1.5 };
  const kind = ['get', 'kind'] as Expression;
  return asLayers([
    {
      id: 'water-labels',
      type: 'symbol',
      ...tile('water'),
      minzoom: 12,
      filter: ['has', 'name'],
      layout: {
        'symbol-placement': ['step', ['zoom'], 'point', 14, 'line'],
        'text-field': ['get', 'name'],
        'text-font': [LABEL_FONT],
        'text-size': 11,
      },
      paint: { 'text-color': COLORS.waterLabel, ...halo },
    },
    {
      id: 'street-labels',
      type: 'symbol',
      ...tile('streets'),
      minzoom: 13,
      filter: ['has', 'name'],
      layout: {
        'symbol-placement': 'line',
        'symbol-spacing': 320,
        'symbol-sort-key': ['-', 0, STREET_RANK],
        'text-field': ['get', 'name'],
        'text-font': [LABEL_FONT],
        'text-size': ['interpolate', ['linear'], ['zoom'], 13, 10, 17, 12, 20, 14],
        'text-max-angle': 30,
        'text-padding': 2,
      },
      paint: { 'text-color': COLORS.roadLabel, ...halo },
    },
    {
      id: 'place-labels',
      type: 'symbol',
      ...tile('places'),
      filter: [
        'all',
        ['!', ['in', kind, ['literal', ['country', 'state', 'street']]]],
        ['<=', ['coalesce', ['get', 'min_zoom'], 0], ['zoom']],
      ] as Expression,
      layout: {
        'symbol-sort-key': ['coalesce', ['get', 'rank'], 100],
        'text-field': ['get', 'name'],
        'text-font': ['match', kind, ['city', 'town'], ['literal', [PLACE_FONT]], ['literal', [LABEL_FONT]]],
        'text-size': ['match', kind, 'city', 16, 'town', 14, 'village', 12, 11],
        'text-max-width': 8,
        'text-variable-anchor': ['center', 'top', 'bottom', 'left', 'right'],
        'text-radial-offset': 0.6,
        'text-padding': 3,
      },
      paint: {
        'text-color': ['match', kind, ['city', 'town', 'village'], COLORS.cityLabel, COLORS.subplaceLabel],
        ...halo,
      },
    },
  ]);
}
