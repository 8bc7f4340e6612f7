import { GeoJSONSource, LngLatBounds, Map as MapLibreMap, Marker, NavigationControl, ScaleControl, setWorkerUrl } from 'maplibre-gl';
import type { FeatureCollection, Polygon } from 'geojson';
import type { ImageryRecord } from './api';
import { attachBasemap, basemapLayers, basemapSources } from './basemap';
import { headingOf, Near } from './search-state';

// The map worker is copied next to the bundle by web/build.mjs.
setWorkerUrl(new URL('./maplibre-gl-worker.mjs', import.meta.url).href);

const EMPTY: FeatureCollection = { type: 'FeatureCollection', features: [] };
const ACCENT = '#1d4ed8';

const reducedMotion = () => window.matchMedia('(prefers-reduced-motion: reduce)').matches;

export interface MapEvents {
  onMarkerHover(id: string | null): void;
  onMarkerClick(id: string): void;
  onUserMove(): void;
}

export interface MapView {
  showResults(records: ImageryRecord[], firstNumber: number): void;
  highlight(id: string | null): void;
  focusRecord(id: string): void;
  center(): { lat: number; lon: number };
  jumpTo(lat: number, lon: number, radiusM: number): void;
  showNear(near: Near | null): void;
}

// The map is progressive: without WebGL the page still searches and lists results.
export function createMapView(container: HTMLElement, events: MapEvents): MapView | null {
  let map: MapLibreMap;
  try {
    map = new MapLibreMap({
      container,
      style: {
        version: 8,
        sources: { ...basemapSources(), near: { type: 'geojson', data: EMPTY } },
        layers: [
          ...basemapLayers(),
          { id: 'near-fill', type: 'fill', source: 'near', paint: { 'fill-color': ACCENT, 'fill-opacity': 0.07 } },
          { id: 'near-line', type: 'line', source: 'near', paint: { 'line-color': ACCENT, 'line-width': 1.5, 'line-dasharray': [2, 2] } },
        ],
      },
      center: [0, 25],
      zoom: 1,
      maxZoom: 18,
      dragRotate: false,
      pitchWithRotate: false,
      touchPitch: false,
      attributionControl: { compact: true, customAttribution: 'Basemap: Natural Earth' },
    });
  } catch {
    container.classList.add('map-unavailable');
    container.textContent = 'The map needs WebGL, which this browser does not offer. The results are listed without it.';
    return null;
  }
  // A north-up map keeps the compass headings readable.
  map.touchZoomRotate.disableRotation();
  map.keyboard.disableRotation();
  map.addControl(new NavigationControl({ showCompass: false }), 'top-right');
  map.addControl(new ScaleControl({ unit: 'metric' }), 'bottom-left');
  container.querySelector('canvas')?.setAttribute('aria-label', 'Map of the results; use the arrow keys to pan and + or - to zoom');

  attachBasemap(map, container);
  map.on('moveend', (e) => {
    if ((e as { originalEvent?: Event }).originalEvent) events.onUserMove();
  });

  let markers = new Map<string, { marker: Marker; element: HTMLElement }>();
  let area: Near | null = null;

  return {
    showResults(records, firstNumber) {
      for (const { marker } of markers.values()) marker.remove();
      markers = new Map();
      const bounds = new LngLatBounds();
      records.forEach((record, i) => {
        const element = markerElement(record, firstNumber + i);
        element.addEventListener('mouseenter', () => events.onMarkerHover(record.id));
        element.addEventListener('mouseleave', () => events.onMarkerHover(null));
        element.addEventListener('click', () => events.onMarkerClick(record.id));
        const [lon, lat] = record.geometry.coordinates;
        const marker = new Marker({ element, anchor: 'center' }).setLngLat([lon, lat]).addTo(map);
        markers.set(record.id, { marker, element });
        bounds.extend([lon, lat]);
      });
      // A search near a point shows its whole circle, not only what was found in it.
      if (area) {
        const dLat = area.radiusM / 111_320;
        const dLon = dLat / Math.max(0.01, Math.cos((area.lat * Math.PI) / 180));
        bounds.extend([area.lon - dLon, area.lat - dLat]).extend([area.lon + dLon, area.lat + dLat]);
      }
      if (bounds.isEmpty()) return;
      const duration = reducedMotion() ? 0 : 700;
      // Tests and tools can wait for the camera to settle on the results.
      delete container.dataset.camera;
      map.once('moveend', () => (container.dataset.camera = 'settled'));
      const sw = bounds.getSouthWest();
      const ne = bounds.getNorthEast();
      if (sw.lng === ne.lng && sw.lat === ne.lat) map.easeTo({ center: sw, zoom: Math.max(map.getZoom(), 15), duration });
      else map.fitBounds(bounds, { padding: 64, maxZoom: 16, duration });
    },

    highlight(id) {
      for (const [key, { element }] of markers) element.classList.toggle('is-active', key === id);
    },

    focusRecord(id) {
      const entry = markers.get(id);
      if (!entry) return;
      map.easeTo({ center: entry.marker.getLngLat(), zoom: Math.max(map.getZoom(), 14), duration: reducedMotion() ? 0 : 500 });
    },

    center() {
      const c = map.getCenter();
      return { lat: c.lat, lon: c.lng };
    },

    jumpTo(lat, lon, radiusM) {
      // Zoom so the circle fills roughly the map's shorter side.
      const metresPerPixelAtZoom0 = (40_075_016 * Math.cos((lat * Math.PI) / 180)) / 512;
      const side = Math.min(container.clientWidth, container.clientHeight) || 400;
      const zoom = Math.log2((metresPerPixelAtZoom0 * side) / (2.6 * radiusM));
      map.jumpTo({ center: [lon, lat], zoom: Math.min(16, Math.max(1, zoom)) });
    },

    showNear(near) {
      area = near;
      const source = map.getSource('near') as GeoJSONSource | undefined;
      const data = near ? circle(near) : EMPTY;
      if (source) source.setData(data);
      else map.once('load', () => (map.getSource('near') as GeoJSONSource).setData(data));
    },
  };
}

function markerElement(record: ImageryRecord, number: number): HTMLElement {
  const element = document.createElement('div');
  element.className = record.interactive ? 'marker marker-interactive' : 'marker';
  element.dataset.id = record.id;
  // The list is the accessible twin of the map: markers are pointer conveniences only.
  element.setAttribute('aria-hidden', 'true');
  const heading = headingOf(record.compass);
  if (heading !== null) {
    const cone = document.createElement('span');
    cone.className = 'marker-cone';
    cone.style.setProperty('--heading', `${heading}deg`);
    element.append(cone);
  }
  const dot = document.createElement('span');
  dot.className = 'marker-dot';
  dot.textContent = String(number);
  element.append(dot);
  element.title = `${number}. ${record.address} (${record.compass})`;
  return element;
}

// A geodesic circle as a 64-sided polygon, for the "near the map centre" area.
function circle({ lat, lon, radiusM }: Near): FeatureCollection<Polygon> {
  const R = 6_371_008.8;
  const d = radiusM / R;
  const φ1 = (lat * Math.PI) / 180;
  const λ1 = (lon * Math.PI) / 180;
  const ring: [number, number][] = [];
  for (let i = 0; i <= 64; i++) {
    const θ = (i / 64) * 2 * Math.PI;
    const φ2 = Math.asin(Math.sin(φ1) * Math.cos(d) + Math.cos(φ1) * Math.sin(d) * Math.cos(θ));
    const λ2 = λ1 + Math.atan2(Math.sin(θ) * Math.sin(d) * Math.cos(φ1), Math.cos(d) - Math.sin(φ1) * Math.sin(φ2));
    ring.push([(λ2 * 180) / Math.PI, (φ2 * 180) / Math.PI]);
  }
  return { type: 'FeatureCollection', features: [{ type: 'Feature', properties: {}, geometry: { type: 'Polygon', coordinates: [ring] } }] };
}
