import type { LayerSpecification } from '@maplibre/maplibre-gl-style-spec';
import { SEQUENCE_MAX_ZOOM, SEQUENCE_MIN_ZOOM } from '../tiles/tile-limits';
import { COLORS } from './map-style-colors';
import { asLayers, Expression, PLACE_FONT, tile } from './map-style-layers';

// The imagery's layers (tiles contract, docs/map-tiles.md#layers), hidden until the page's "Coverage"
// toggle shows them: the coverage cells and images, and the sequences' lines between them.

export const VIEW_ICON = 'coverage-view';
const hidden = { visibility: 'none' as const };
// A 360° image's colour, or a still one's: the same for its point and its sequence's line.
const COLOR = ['case', ['==', ['get', 'interactive'], true], COLORS.coverageInteractive, COLORS.coverage] as Expression;
// A line fades with the age of its newest image, over the years before this one: a street taken again
// stands out from one taken long ago.
const FADE_YEARS = 6;

export function coverageLayers(): LayerSpecification[] {
  const [cells, counts, views, points] = imageLayers();
  return [cells, sequenceLayer(), counts, views, points];
}

// Each sequence's line at the zooms the tiles draw it (between the cells and the images above them).
function sequenceLayer(): LayerSpecification {
  const year = new Date().getUTCFullYear();
  const age = ['-', year, ['to-number', ['slice', ['get', 'date'], 0, 4], year]];
  return asLayers([
    {
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
    },
  ])[0];
}

// The images: below zoom 15 one circle per grid cell, sized by its count and labelled with it; from
// zoom 15 each image as a dot with its viewing direction (a 360° image as a ring, no direction).
function imageLayers(): LayerSpecification[] {
  return asLayers([
    {
      id: 'coverage-cells',
      type: 'circle',
      ...tile('coverage'),
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
    {
      id: 'coverage-counts',
      type: 'symbol',
      ...tile('coverage'),
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
