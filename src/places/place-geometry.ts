import along from '@turf/along';
import area from '@turf/area';
import centerOfMass from '@turf/center-of-mass';
import length from '@turf/length';

type Position = [number, number];

// One point for a place whatever its geometry (the points Nominatim and the relevance suite take): a
// point is itself; a line gives the point halfway along it, which lies on it; an area gives its
// centre of mass (inside compact shapes such as buildings; a concave outline may put it outside);
// a multi-geometry uses its longest line or largest area (@turf: geodesic lengths and areas).
// Returns null for anything without usable coordinates; the caller's validation says why.
export function representativePoint(geometry: unknown): Position | null {
  if (typeof geometry !== 'object' || geometry === null) return null;
  const { type, coordinates } = geometry as { type?: unknown; coordinates?: unknown };
  switch (type) {
    case 'Point':
      return position(coordinates);
    case 'MultiPoint': {
      const points = positions(coordinates);
      return points && points.length > 0 ? points[Math.floor(points.length / 2)] : null;
    }
    case 'LineString':
      return halfway(positions(coordinates));
    case 'MultiLineString':
      return halfway(largest(parts(coordinates, positions), (line) => length(lineOf(line))));
    case 'Polygon':
      return massCentre(rings(coordinates));
    case 'MultiPolygon':
      return massCentre(largest(parts(coordinates, rings), (polygon) => area(polygonOf(polygon))));
    default:
      return null;
  }
}

function position(value: unknown): Position | null {
  if (!Array.isArray(value) || value.length < 2 || typeof value[0] !== 'number' || typeof value[1] !== 'number')
    return null;
  if (!Number.isFinite(value[0]) || !Number.isFinite(value[1])) return null;
  return [value[0], value[1]];
}

// Every position of a list, or null when one is not a position.
function positions(value: unknown): Position[] | null {
  if (!Array.isArray(value)) return null;
  const out: Position[] = [];
  for (const v of value) {
    const p = position(v);
    if (!p) return null;
    out.push(p);
  }
  return out;
}

function rings(value: unknown): Position[][] | null {
  return parts(value, positions);
}

function parts<T>(value: unknown, read: (v: unknown) => T | null): T[] | null {
  if (!Array.isArray(value) || value.length === 0) return null;
  const out: T[] = [];
  for (const v of value) {
    const part = read(v);
    if (part === null) return null;
    out.push(part);
  }
  return out;
}

function largest<T>(items: T[] | null, size: (item: T) => number): T | null {
  if (!items || items.length === 0) return null;
  return items.reduce((best, item) => (size(item) > size(best) ? item : best));
}

const lineOf = (line: Position[]) => ({
  type: 'Feature' as const,
  properties: {},
  geometry: { type: 'LineString' as const, coordinates: line },
});
const polygonOf = (polygon: Position[][]) => ({ type: 'Polygon' as const, coordinates: polygon });

function halfway(line: Position[] | null): Position | null {
  if (!line || line.length === 0) return null;
  if (line.length === 1) return line[0];
  const feature = lineOf(line);
  return along(feature, length(feature) / 2).geometry.coordinates as Position;
}

// A ring of fewer than four positions is not a polygon to turf: the mean of its positions.
function massCentre(polygon: Position[][] | null): Position | null {
  const outer = polygon?.[0];
  if (!outer || outer.length === 0) return null;
  if (outer.length < 4) return mean(outer);
  const [lon, lat] = centerOfMass(polygonOf([outer])).geometry.coordinates;
  return Number.isFinite(lon) && Number.isFinite(lat) ? [lon, lat] : mean(outer);
}

function mean(points: Position[]): Position {
  const sum = points.reduce((a, p) => [a[0] + p[0], a[1] + p[1]], [0, 0]);
  return [sum[0] / points.length, sum[1] / points.length];
}

// At most this many vertices in a stored street line (longer ones keep only their point).
export const MAX_LINE_VERTICES = 5000;

// A street's line as GeoJSON text, when `geometry` is a LineString or MultiLineString of at most
// MAX_LINE_VERTICES positions, each a longitude and latitude in range; null for anything else (the
// street then stands at its point only: a bad line is no reason to lose the street).
export function streetLine(geometry: unknown): string | null {
  if (typeof geometry !== 'object' || geometry === null) return null;
  const { type, coordinates } = geometry as { type?: unknown; coordinates?: unknown };
  const lines = type === 'LineString' ? [coordinates] : type === 'MultiLineString' ? coordinates : null;
  if (!Array.isArray(lines) || lines.length === 0) return null;
  let vertices = 0;
  const clean: Array<Array<[number, number]>> = [];
  for (const line of lines) {
    if (!Array.isArray(line) || line.length < 2) return null;
    const positions: Array<[number, number]> = [];
    for (const p of line) {
      const pos = position(p);
      if (!pos || Math.abs(pos[0]) > 180 || Math.abs(pos[1]) > 90) return null;
      positions.push(pos);
    }
    vertices += positions.length;
    if (vertices > MAX_LINE_VERTICES) return null;
    clean.push(positions);
  }
  return JSON.stringify(
    clean.length === 1
      ? { type: 'LineString', coordinates: clean[0] }
      : { type: 'MultiLineString', coordinates: clean },
  );
}
