import type { Map as MapLibreMap } from 'maplibre-gl';
import type { FeatureCollection, Point, Polygon } from 'geojson';
import type { ImageryRecord } from './api';
import { labelImage } from './map-images';
import type { Near } from './search-state';
import { EARTH_RADIUS_M } from './earth';

// The GeoJSON layers the search draws on the map (web/src/map-view.ts), and their data.

export const EMPTY: FeatureCollection = { type: 'FeatureCollection', features: [] };
const ACCENT = '#1d4ed8';
const PLACE_INK = '#7c2d12';

// The search's own layers, above the basemap or the operator's style: the near circle, the lines from
// results to their places, and the names of those places.
export function addOverlays(map: MapLibreMap): void {
  map.addSource('near', { type: 'geojson', data: EMPTY });
  map.addSource('place-links', { type: 'geojson', data: EMPTY });
  map.addSource('place-labels', { type: 'geojson', data: EMPTY });
  map.addLayer({
    id: 'near-fill',
    type: 'fill',
    source: 'near',
    paint: { 'fill-color': ACCENT, 'fill-opacity': 0.07 },
  });
  map.addLayer({
    id: 'near-line',
    type: 'line',
    source: 'near',
    paint: { 'line-color': ACCENT, 'line-width': 1.5, 'line-dasharray': [2, 2] },
  });
  map.addLayer({
    id: 'place-links',
    type: 'line',
    source: 'place-links',
    paint: { 'line-color': PLACE_INK, 'line-width': 1.2, 'line-opacity': 0.6, 'line-dasharray': [1, 2] },
  });
  // Beside their pins; colliding names give way, so a crowded area stays readable.
  map.addLayer({
    id: 'place-labels',
    type: 'symbol',
    source: 'place-labels',
    layout: { 'icon-image': ['get', 'image'], 'icon-anchor': 'left', 'icon-offset': [6, 0], 'icon-padding': 2 },
  });
}

// The names of the places the results belong to, each once: a town, postcode, street or region by
// its own name ("Vaduz" of "Vaduz, Liechtenstein"). Addresses are named at their pins instead.
export function placeLabels(records: ImageryRecord[]): FeatureCollection<Point> {
  const seen = new Set<string>();
  const features: FeatureCollection<Point>['features'] = [];
  for (const { place } of records) {
    if (!place || place.kind === 'address' || seen.has(place.id)) continue;
    seen.add(place.id);
    const name = place.label.split(',')[0].trim();
    features.push({
      type: 'Feature',
      properties: { image: labelImage('place', name), name },
      geometry: { type: 'Point', coordinates: [place.lon, place.lat] },
    });
  }
  return { type: 'FeatureCollection', features };
}

// A geodesic circle as a 64-sided polygon, for the "near the map centre" area.
export function circle({ lat, lon, radiusM }: Near): FeatureCollection<Polygon> {
  const d = radiusM / EARTH_RADIUS_M;
  const φ1 = (lat * Math.PI) / 180;
  const λ1 = (lon * Math.PI) / 180;
  const ring: [number, number][] = [];
  for (let i = 0; i <= 64; i++) {
    const θ = (i / 64) * 2 * Math.PI;
    const φ2 = Math.asin(Math.sin(φ1) * Math.cos(d) + Math.cos(φ1) * Math.sin(d) * Math.cos(θ));
    const λ2 = λ1 + Math.atan2(Math.sin(θ) * Math.sin(d) * Math.cos(φ1), Math.cos(d) - Math.sin(φ1) * Math.sin(φ2));
    ring.push([(λ2 * 180) / Math.PI, (φ2 * 180) / Math.PI]);
  }
  return {
    type: 'FeatureCollection',
    features: [{ type: 'Feature', properties: {}, geometry: { type: 'Polygon', coordinates: [ring] } }],
  };
}

// The zoom at which a circle of radiusM around latitude lat fills roughly a side of `side` pixels.
export function circleZoom(lat: number, radiusM: number, side: number): number {
  const metresPerPixelAtZoom0 = (40_075_016 * Math.cos((lat * Math.PI) / 180)) / 512;
  return Math.log2((metresPerPixelAtZoom0 * side) / (2.6 * radiusM));
}
