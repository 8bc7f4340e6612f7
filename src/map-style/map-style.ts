import type { LayerSpecification, StyleSpecification } from '@maplibre/maplibre-gl-style-spec';
import { coverageLayers } from './coverage-layers';
import { asLayers, LABEL_FONT, PLACE_FONT, tileLabelLayers, tileLayers } from './map-style-layers';
import { COLORS } from './map-style-colors';

// The service's own map style (GET /map/style.json): Natural Earth at 1:50m for the world view (built
// into dist/web/assets/basemap by web/build.mjs), the service's vector tiles (GET /tiles/{z}/{x}/{y}.mvt:
// streets, paths, water, landuse, buildings, places, coverage, sequences) from the street to the doorstep, and
// text in Noto Sans from the service's own glyphs (GET /map/fonts/...). Nothing from elsewhere.
// URLs are root-relative: MapLibre resolves them against the page, so the style works behind any host.

export const STYLE_NAME = 'Location Imagery Search';
export const STYLE_MAX_ZOOM = 20;
export const TILES_URL = '/tiles/{z}/{x}/{y}.mvt';
export const GLYPHS_URL = '/map/fonts/{fontstack}/{range}.pbf';
const NATURAL_EARTH = '/assets/basemap';
// The tiles' own bounds (tiles contract): z 0..20. Streets and labels are drawn from the tiles up to
// 20; the page never zooms further.
const TILES_MAX_ZOOM = 20;

const ne = (name: string) => ({ type: 'geojson' as const, data: `${NATURAL_EARTH}/${name}.geojson` });

export function mapStyle(): StyleSpecification {
  return {
    version: 8,
    name: STYLE_NAME,
    metadata: { 'lis:coverage-layers': coverageLayers().map((l) => l.id) },
    glyphs: GLYPHS_URL,
    sources: {
      land: { ...ne('land'), attribution: 'Natural Earth' },
      borders: ne('borders'),
      'country-labels': ne('country-labels'),
      lakes: ne('lakes'),
      rivers: ne('rivers'),
      states: ne('states'),
      'state-labels': ne('state-labels'),
      tiles: {
        type: 'vector',
        tiles: [TILES_URL],
        minzoom: 0,
        maxzoom: TILES_MAX_ZOOM,
        attribution: 'Map data © OpenStreetMap contributors where imported',
      },
    },
    layers: [
      ...worldLayers(),
      ...tileLayers(),
      ...worldLines(),
      ...coverageLayers(),
      ...tileLabelLayers(),
      ...worldLabels(),
    ],
  };
}

// Natural Earth's 1:50m coast is kilometres off at city zooms (midtown Manhattan, Copenhagen and Venice
// lie in its sea), and imagery is taken on land: from SEA_UNTIL_ZOOM the sea fades into land, and water
// there is the tiles' own (lakes, rivers, harbours where OpenStreetMap was imported).
const SEA_UNTIL_ZOOM = 8;
const LAND_FROM_ZOOM = 10;

// Natural Earth under the tiles: the sea, land and lakes.
function worldLayers(): LayerSpecification[] {
  return asLayers([
    {
      id: 'water',
      type: 'background',
      paint: {
        'background-color': [
          'interpolate',
          ['linear'],
          ['zoom'],
          SEA_UNTIL_ZOOM,
          COLORS.water,
          LAND_FROM_ZOOM,
          COLORS.earth,
        ],
      },
    },
    { id: 'land', type: 'fill', source: 'land', paint: { 'fill-color': COLORS.earth } },
    {
      id: 'coast',
      type: 'line',
      source: 'land',
      maxzoom: LAND_FROM_ZOOM,
      paint: { 'line-color': COLORS.coast, 'line-width': 1 },
    },
    // 1:50m lakes drift by hundreds of metres at street zoom, where the tiles' own water takes over.
    { id: 'lakes', type: 'fill', source: 'lakes', maxzoom: 12, paint: { 'fill-color': COLORS.water } },
    {
      id: 'rivers',
      type: 'line',
      source: 'rivers',
      minzoom: 3,
      maxzoom: 11,
      paint: { 'line-color': COLORS.water, 'line-width': ['interpolate', ['linear'], ['zoom'], 3, 0.6, 8, 1.8] },
    },
  ]);
}

// Borders over the streets, so they read where both are drawn.
function worldLines(): LayerSpecification[] {
  return asLayers([
    {
      id: 'states',
      type: 'line',
      source: 'states',
      minzoom: 2.5,
      paint: { 'line-color': COLORS.state, 'line-width': 0.8, 'line-dasharray': [4, 2] },
    },
    {
      id: 'borders',
      type: 'line',
      source: 'borders',
      paint: {
        'line-color': COLORS.border,
        'line-width': ['interpolate', ['linear'], ['zoom'], 1, 0.6, 8, 1.6, 14, 3],
      },
    },
  ]);
}

// Country names by size (area in square degrees of the largest polygon): the largest from the world
// view, the smallest once zoomed in; the larger win where names collide. State and province names
// from zoom 3.5. Past zoom 10 the tiles' places name what is in view.
function worldLabels(): LayerSpecification[] {
  const text = (size: number, color: string) => ({
    layout: {
      'text-field': ['get', 'name'],
      'text-font': [PLACE_FONT],
      'text-size': size,
      'text-max-width': 8,
      'text-padding': 4,
      // Beside a result marker or the search pin rather than left out (web/src/map-footprints.ts).
      'text-variable-anchor': ['center', 'top', 'bottom', 'left', 'right'],
      'text-radial-offset': 1.2,
    },
    paint: { 'text-color': color, 'text-halo-color': COLORS.halo, 'text-halo-width': 1.5 },
  });
  const state = text(11, COLORS.stateLabel);
  const country = text(13, COLORS.countryLabel);
  return asLayers([
    {
      id: 'state-labels',
      type: 'symbol',
      source: 'state-labels',
      minzoom: 3.5,
      maxzoom: 10,
      layout: {
        ...state.layout,
        'text-font': [LABEL_FONT],
        'text-transform': 'uppercase',
        'text-letter-spacing': 0.05,
      },
      paint: state.paint,
    },
    {
      id: 'country-labels',
      type: 'symbol',
      source: 'country-labels',
      maxzoom: 10,
      filter: ['>=', ['get', 'area'], ['step', ['zoom'], 40, 3, 2, 5, 0]],
      layout: { ...country.layout, 'symbol-sort-key': ['-', 0, ['get', 'area']] },
      paint: country.paint,
    },
  ]);
}
