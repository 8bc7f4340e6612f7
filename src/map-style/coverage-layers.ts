import type { LayerSpecification } from '@maplibre/maplibre-gl-style-spec';
import { SEQUENCE_MAX_ZOOM, SEQUENCE_MIN_ZOOM } from '../tiles/tile-limits';
import { COLORS } from './map-style-colors';
import { asLayers, Expression, PLACE_FONT, tile, VIEW_ICON } from './map-style-layers';

// The imagery's layers of the service's map style, from the tiles' `coverage` and `sequences` layers
// (docs/map-tiles.md#layers).

// Below this zoom the coverage is drawn as density (a heatmap of the cells' counts): at the world's zooms
// a cell is tens of kilometres and numbered circles of neighbouring cells would overlap into a mass.
// From it, a circle per cell with its number.
export const COVERAGE_CELLS_FROM_ZOOM = 9;
const hidden = { visibility: 'none' as const };
// A 360° image's colour, or a still one's: the same for its point and its sequence's line.
const COLOR = ['case', ['==', ['get', 'interactive'], true], COLORS.coverageInteractive, COLORS.coverage] as Expression;
// A line fades with the age of its newest image, over the years before this one: a street taken again
// stands out from one taken long ago.
const FADE_YEARS = 6;

function densityLayer(): object {
  // A cell's weight grows with the log of its images: a city's thousands read denser than a village's
  // ten, without the city hiding the village, and a lone image still shows.
  const weight = ['ln', ['+', 1, ['get', 'count']]] as Expression;
  return {
    id: 'coverage-density',
    type: 'heatmap',
    ...tile('coverage'),
    maxzoom: COVERAGE_CELLS_FROM_ZOOM,
    filter: ['has', 'count'],
    layout: hidden,
    paint: {
      'heatmap-weight': ['interpolate', ['linear'], weight, Math.log(2), 0.4, Math.log(10_001), 1],
      'heatmap-radius': ['interpolate', ['linear'], ['zoom'], 0, 6, COVERAGE_CELLS_FROM_ZOOM, 24],
      'heatmap-intensity': ['interpolate', ['linear'], ['zoom'], 0, 1.5, COVERAGE_CELLS_FROM_ZOOM, 2.5],
      'heatmap-color': [
        'interpolate',
        ['linear'],
        ['heatmap-density'],
        0,
        'rgba(29, 78, 216, 0)',
        0.2,
        'rgba(29, 78, 216, 0.35)',
        0.6,
        'rgba(29, 78, 216, 0.7)',
        1,
        COLORS.coverageDense,
      ],
    },
  };
}

// Each sequence's line at the zooms the tiles draw it (over the cells, under the images).
function sequenceLayer(): object {
  const year = new Date().getUTCFullYear();
  const age = ['-', year, ['to-number', ['slice', ['get', 'date'], 0, 4], year]];
  return {
    id: 'coverage-sequences',
    type: 'line',
    ...tile('sequences'),
    minzoom: SEQUENCE_MIN_ZOOM,
    maxzoom: SEQUENCE_MAX_ZOOM + 1,
    layout: { ...hidden, 'line-cap': 'round', 'line-join': 'round' },
    paint: {
      'line-color': COLOR,
      'line-opacity': ['interpolate', ['linear'], age, 0, 0.9, FADE_YEARS, 0.35],
      'line-width': ['interpolate', ['linear'], ['zoom'], SEQUENCE_MIN_ZOOM, 1.5, SEQUENCE_MAX_ZOOM, 3],
    },
  };
}

// The imagery, hidden until the page's "Coverage" toggle shows it: below COVERAGE_CELLS_FROM_ZOOM its
// density; then to zoom 14 one circle per grid cell, sized by its count and labelled with it; from zoom
// 15 each image as a dot with its viewing direction (a 360° image as a ring, no direction); from zoom
// 12 to 16 each sequence's line over the circles.
export function coverageLayers(): LayerSpecification[] {
  return asLayers([
    densityLayer(),
    {
      id: 'coverage-cells',
      type: 'circle',
      ...tile('coverage'),
      minzoom: COVERAGE_CELLS_FROM_ZOOM,
      filter: ['has', 'count'],
      layout: hidden,
      paint: {
        'circle-color': COLORS.coverage,
        'circle-opacity': 0.55,
        'circle-radius': ['interpolate', ['linear'], ['ln', ['max', 1, ['get', 'count']]], 0, 5, 9.3, 20],
        'circle-stroke-color': '#ffffff',
        'circle-stroke-width': 1,
      },
    },
    sequenceLayer(),
    {
      id: 'coverage-counts',
      type: 'symbol',
      ...tile('coverage'),
      minzoom: COVERAGE_CELLS_FROM_ZOOM,
      filter: ['all', ['has', 'count'], ['>', ['get', 'count'], 1]],
      layout: {
        ...hidden,
        'text-field': ['to-string', ['get', 'count']],
        'text-font': [PLACE_FONT],
        'text-size': 10,
        'text-allow-overlap': true,
      },
      paint: { 'text-color': '#ffffff' },
    },
    {
      id: 'coverage-views',
      type: 'symbol',
      ...tile('coverage'),
      filter: ['all', ['has', 'heading'], ['!=', ['get', 'interactive'], true]],
      layout: {
        ...hidden,
        'icon-image': VIEW_ICON,
        'icon-rotate': ['get', 'heading'],
        'icon-rotation-alignment': 'map',
        'icon-allow-overlap': true,
        'icon-ignore-placement': true,
        'icon-size': ['interpolate', ['linear'], ['zoom'], 15, 0.6, 19, 1],
      },
    },
    {
      id: 'coverage-points',
      type: 'circle',
      ...tile('coverage'),
      filter: ['has', 'id'],
      layout: hidden,
      paint: {
        'circle-color': ['case', ['==', ['get', 'interactive'], true], '#ffffff', COLOR],
        'circle-radius': ['interpolate', ['linear'], ['zoom'], 15, 3, 20, 6],
        'circle-stroke-color': COLOR,
        'circle-stroke-width': ['case', ['==', ['get', 'interactive'], true], 2, 1],
      },
    },
  ]);
}
