import {
  GeoJSONSource,
  LngLatBounds,
  Map as MapLibreMap,
  Marker,
  NavigationControl,
  ScaleControl,
  setWorkerUrl,
} from 'maplibre-gl';
import type { FeatureCollection, LineString } from 'geojson';
import type { ImageryRecord } from './api';
import { attachCoverage, OWN_STYLE_URL } from './map-coverage';
import { addFootprintLayer, addLeader, FOOTPRINT_SOURCE, footprints, spreadOffsets } from './map-footprints';
import { attachMapImages } from './map-images';
import { fitMaxZoom } from './map-fit';
import { markerElement, placeElement, searchPinElement } from './map-markers';
import { attachViewing, ViewingMarker } from './map-viewing';
import { addOverlays, circle, circleZoom, EMPTY, placeLabels } from './map-overlays';
import type { Near } from './search-state';
import { METRES_PER_DEGREE } from './earth';

// The map worker is copied next to the bundle by web/build.mjs.
setWorkerUrl(new URL('./maplibre-gl-worker.mjs', import.meta.url).href);

// A place this close to its record is drawn joined to it and kept in view; a town's centre
// kilometres away would only zoom the map out from the imagery.
const PLACE_NEAR_M = 1000;
// The service's own style (GET /map/style.json) draws its tiles to the doorstep; an operator's style
// (MAP_STYLE_URL) has streets too, to street level as before.
const OWN_MAX_ZOOM = 20;
const OPERATOR_MAX_ZOOM = 18;

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
  /** A pin at the point searched (coordinates or a plus code), or none. */
  showSearchPoint(point: { lat: number; lon: number } | null): void;
  /** The image the viewer shows, followed. */
  viewing: ViewingMarker;
}

export interface MapOptions {
  /** MAP_STYLE_URL from /config.json; null: the service's own style. */
  styleUrl: string | null;
  /** The key the page searches with: sent with tile requests (TILES_REQUIRE_KEY). */
  apiKey(): string;
}

// The map is progressive: without WebGL the page still searches and lists results.
export function createMapView(container: HTMLElement, events: MapEvents, options: MapOptions): MapView | null {
  const maxZoom = options.styleUrl ? OPERATOR_MAX_ZOOM : OWN_MAX_ZOOM;
  const map = openMap(container, events, options, maxZoom);
  if (!map) return null;
  let markers = new Map<string, { marker: Marker; element: HTMLElement }>();
  let places = new Map<string, { marker: Marker; element: HTMLElement }>();
  let placeOf = new Map<string, string>(); // record id -> place id
  let area: Near | null = null;
  let searchPin: Marker | null = null;
  let searchPoint: { lat: number; lon: number } | null = null;
  let shown: { records: ImageryRecord[]; offsets: Map<string, [number, number]> } = { records: [], offsets: new Map() };
  const updateFootprints = () => setData(FOOTPRINT_SOURCE, footprints(shown.records, shown.offsets, searchPoint));

  const setData = dataSetter(map);

  return {
    viewing: attachViewing(map, maxZoom, reducedMotion),
    showResults(records, firstNumber) {
      for (const { marker } of [...markers.values(), ...places.values()]) marker.remove();
      const bounds = new LngLatBounds();
      const links = placeLinks(records, bounds);
      placeOf = new Map(records.flatMap((r) => (r.place ? [[r.id, r.place.id] as [string, string]] : [])));
      places = placeMarkers(map, records);
      // One place names itself; among several, a place's name shows while one of its results is active.
      container.classList.toggle('one-place', places.size === 1);
      setData('place-links', links);
      setData('place-labels', placeLabels(records));
      // Records taken at one spot are spread around it; labels give way to every marker's footprint.
      const offsets = spreadOffsets(records);
      shown = { records, offsets };
      updateFootprints();
      markers = resultMarkers(map, records, firstNumber, offsets, events);
      for (const { marker } of markers.values()) bounds.extend(marker.getLngLat());
      frameResults(map, container, bounds, { area, maxZoom: Math.min(maxZoom, fitMaxZoom(records)) });
    },

    highlight(id) {
      for (const [key, { element }] of markers) element.classList.toggle('is-active', key === id);
      const place = id === null ? undefined : placeOf.get(id);
      for (const [key, { element }] of places) element.classList.toggle('is-active', key === place);
    },

    focusRecord(id) {
      const entry = markers.get(id);
      if (!entry) return;
      map.easeTo({
        center: entry.marker.getLngLat(),
        zoom: Math.min(maxZoom, Math.max(map.getZoom(), 14)),
        duration: reducedMotion() ? 0 : 500,
      });
    },

    center() {
      const c = map.getCenter();
      return { lat: c.lat, lon: c.lng };
    },

    jumpTo(lat, lon, radiusM) {
      const zoom = circleZoom(lat, radiusM, Math.min(container.clientWidth, container.clientHeight) || 400);
      map.jumpTo({ center: [lon, lat], zoom: Math.min(maxZoom, 16, Math.max(1, zoom)) });
    },

    showNear(near) {
      area = near;
      setData('near', near ? circle(near) : EMPTY);
    },

    showSearchPoint(point) {
      searchPoint = point;
      updateFootprints();
      searchPin?.remove();
      searchPin = point
        ? new Marker({ element: searchPinElement(), anchor: 'bottom' }).setLngLat([point.lon, point.lat]).addTo(map)
        : null;
    },
  };
}

// The places the results belong to, each once, under the result markers.
function placeMarkers(
  map: MapLibreMap,
  records: ImageryRecord[],
): Map<string, { marker: Marker; element: HTMLElement }> {
  const places = new Map<string, { marker: Marker; element: HTMLElement }>();
  for (const place of records.flatMap((r) => (r.place ? [r.place] : []))) {
    if (places.has(place.id)) continue;
    const element = placeElement(place);
    const marker = new Marker({ element, anchor: 'left', offset: [-6, 0] })
      .setLngLat([place.lon, place.lat])
      .addTo(map);
    places.set(place.id, { marker, element });
  }
  return places;
}

// The search's sources exist once the style has loaded (it is fetched): data set before then waits,
// the latest for each source, so an earlier empty set cannot land after a later one.
function dataSetter(map: MapLibreMap): (source: string, data: FeatureCollection) => void {
  const pending = new Map<string, FeatureCollection>();
  map.on('style.load', () => {
    for (const [source, data] of pending) (map.getSource(source) as GeoJSONSource).setData(data);
    pending.clear();
  });
  return (source, data) => {
    const target = map.getSource(source) as GeoJSONSource | undefined;
    if (target) target.setData(data);
    else pending.set(source, data);
  };
}

function resultMarkers(
  map: MapLibreMap,
  records: ImageryRecord[],
  firstNumber: number,
  offsets: Map<string, [number, number]>,
  events: MapEvents,
): Map<string, { marker: Marker; element: HTMLElement }> {
  const markers = new Map<string, { marker: Marker; element: HTMLElement }>();
  records.forEach((record, i) => {
    const element = markerElement(record, firstNumber + i);
    const offset = offsets.get(record.id);
    if (offset) addLeader(element, offset);
    element.addEventListener('mouseenter', () => events.onMarkerHover(record.id));
    element.addEventListener('mouseleave', () => events.onMarkerHover(null));
    element.addEventListener('click', () => events.onMarkerClick(record.id));
    const marker = new Marker({ element, anchor: 'center', offset: offset ?? [0, 0] })
      .setLngLat(record.geometry.coordinates)
      .addTo(map);
    markers.set(record.id, { marker, element });
  });
  return markers;
}

// The map with its controls and the page's hooks (style, errors, moves), or null without WebGL.
function openMap(container: HTMLElement, events: MapEvents, options: MapOptions, maxZoom: number): MapLibreMap | null {
  let map: MapLibreMap;
  container.dataset.maxZoom = String(maxZoom);
  if (options.styleUrl) container.dataset.customStyle = '';
  try {
    map = new MapLibreMap({
      container,
      style: options.styleUrl ?? OWN_STYLE_URL,
      center: [0, 25],
      zoom: 1,
      maxZoom,
      dragRotate: false,
      pitchWithRotate: false,
      touchPitch: false,
      // Each style names its own sources' attribution.
      attributionControl: { compact: true },
      // Tiles may need the key (TILES_REQUIRE_KEY): sent to this service only, never to another origin.
      transformRequest: (url) => {
        const key = options.apiKey();
        const own = new URL(url, location.href);
        return key && own.origin === location.origin && own.pathname.startsWith('/tiles/')
          ? { url, headers: { 'x-api-key': key } }
          : { url };
      },
    });
  } catch {
    container.classList.add('map-unavailable');
    container.textContent =
      'The map needs WebGL, which this browser does not offer. The results are listed without it.';
    return null;
  }
  // A north-up map keeps the compass headings readable.
  map.touchZoomRotate.disableRotation();
  map.keyboard.disableRotation();
  map.addControl(new NavigationControl({ showCompass: false }), 'top-right');
  map.addControl(new ScaleControl({ unit: 'metric' }), 'bottom-left');
  container
    .querySelector('canvas')
    ?.setAttribute('aria-label', 'Map of the results; use the arrow keys to pan and + or - to zoom');

  attachMapImages(map);
  attachCoverage(map, container, !options.styleUrl);
  map.on('style.load', () => {
    addOverlays(map);
    addFootprintLayer(map, EMPTY);
    // Tests and tools can tell when the style's own data (Natural Earth, the first tiles) has loaded.
    map.once('idle', () => (container.dataset.basemap = 'loaded'));
    // Tests and tools can tell which style is showing.
    container.dataset.style = map.getStyle().name ?? options.styleUrl ?? '';
  });
  map.on('error', (e) => {
    if (options.styleUrl && !map.isStyleLoaded()) container.dataset.styleError = String(e.error?.message ?? e.error);
  });
  // For tests and tools: the map itself (queryRenderedFeatures, the camera).
  (window as unknown as { lisMap?: MapLibreMap }).lisMap = map;
  map.on('moveend', (e) => {
    container.dataset.zoom = map.getZoom().toFixed(2);
    if ((e as { originalEvent?: Event }).originalEvent) events.onUserMove();
  });
  return map;
}

// The lines joining records to the places they belong to, when those are near (PLACE_NEAR_M); such a
// place is kept in view (added to `bounds`).
function placeLinks(records: ImageryRecord[], bounds: LngLatBounds) {
  const links: FeatureCollection<LineString> = { type: 'FeatureCollection', features: [] };
  for (const record of records) {
    const place = record.place;
    if (!place || place.distance_m > PLACE_NEAR_M) continue;
    links.features.push({
      type: 'Feature',
      properties: {},
      geometry: { type: 'LineString', coordinates: [record.geometry.coordinates, [place.lon, place.lat]] },
    });
    bounds.extend([place.lon, place.lat]);
  }
  return links;
}

// The camera on the results: a search near a point shows its whole circle, not only what was found in
// it; never closer than the kind of place found calls for, nor past what the basemap shows (maxZoom).
function frameResults(
  map: MapLibreMap,
  container: HTMLElement,
  bounds: LngLatBounds,
  { area, maxZoom }: { area: Near | null; maxZoom: number },
): void {
  if (area) {
    const dLat = area.radiusM / METRES_PER_DEGREE;
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
  if (sw.lng === ne.lng && sw.lat === ne.lat)
    map.easeTo({ center: sw, zoom: Math.min(maxZoom, Math.max(map.getZoom(), 15)), duration });
  else map.fitBounds(bounds, { padding: 64, maxZoom, duration });
}
