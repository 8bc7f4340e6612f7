import { invalidParameter } from './stac.exception';

// `bbox` and `intersects`, read and checked before any SQL sees them: longitudes and latitudes in
// range, GeoJSON geometries of a known type with well-formed positions, rings closed, a bounded size.

/** West, south, east, north in degrees; west > east crosses the antimeridian. */
export type Bbox = [number, number, number, number];

export interface Geometry {
  type: string;
  coordinates?: unknown;
  geometries?: Geometry[];
}

// Enough for any shape a map client draws; the POST body's own bounds (16 KB) come first.
export const MAX_POSITIONS = 2000;
const BBOX_RULE = 'must be 4 (or 6, with heights) numbers: west, south, east, north in degrees';

export function parseBbox(value: unknown): Bbox {
  const numbers =
    typeof value === 'string'
      ? value.split(',').map((v) => (v.trim() === '' ? NaN : Number(v)))
      : Array.isArray(value) && value.every((v) => typeof v === 'number')
        ? (value as number[])
        : null;
  if (numbers === null || (numbers.length !== 4 && numbers.length !== 6) || !numbers.every(Number.isFinite)) {
    throw invalidParameter('bbox', BBOX_RULE);
  }
  const [west, south, east, north] = numbers.length === 4 ? numbers : [numbers[0], numbers[1], numbers[3], numbers[4]];
  if ([west, east].some((lon) => lon < -180 || lon > 180) || [south, north].some((lat) => lat < -90 || lat > 90)) {
    throw invalidParameter('bbox', 'must have longitudes within -180..180 and latitudes within -90..90');
  }
  if (south > north) throw invalidParameter('bbox', 'must have its south edge at or below its north edge');
  return [west, south, east, north];
}

const POSITION_DEPTH: Record<string, number> = {
  Point: 0,
  MultiPoint: 1,
  LineString: 1,
  MultiLineString: 2,
  Polygon: 2,
  MultiPolygon: 3,
};

export function parseIntersects(value: unknown): Geometry {
  let geometry = value;
  if (typeof value === 'string') {
    try {
      geometry = JSON.parse(value);
    } catch {
      throw invalidParameter('intersects', 'must be a GeoJSON geometry (JSON)');
    }
  }
  const count = { positions: 0 };
  checkGeometry(geometry, count, 0);
  return geometry as Geometry;
}

function checkGeometry(value: unknown, count: { positions: number }, nesting: number): void {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw invalidParameter('intersects', 'must be a GeoJSON geometry object');
  }
  const { type, coordinates, geometries } = value as Geometry;
  if (type === 'GeometryCollection' && nesting === 0 && Array.isArray(geometries) && geometries.length > 0) {
    for (const member of geometries) checkGeometry(member, count, nesting + 1);
    return;
  }
  const depth = typeof type === 'string' && Object.hasOwn(POSITION_DEPTH, type) ? POSITION_DEPTH[type] : undefined;
  if (depth === undefined) {
    throw invalidParameter(
      'intersects',
      `must be a GeoJSON geometry: ${Object.keys(POSITION_DEPTH).join(', ')} or GeometryCollection (of those)`,
    );
  }
  checkCoordinates(type, coordinates, depth, count);
}

function checkCoordinates(type: string, value: unknown, depth: number, count: { positions: number }): void {
  if (depth === 0) {
    checkPosition(value);
    if (++count.positions > MAX_POSITIONS) {
      throw invalidParameter('intersects', `must have at most ${MAX_POSITIONS} positions`);
    }
    return;
  }
  if (!Array.isArray(value) || value.length === 0) {
    throw invalidParameter('intersects', `must have the coordinates of a ${type}`);
  }
  for (const member of value) checkCoordinates(type, member, depth - 1, count);
  const isRing = (type === 'Polygon' && depth === 1) || (type === 'MultiPolygon' && depth === 1);
  if (isRing && (value.length < 4 || !samePosition(value[0], value[value.length - 1]))) {
    throw invalidParameter('intersects', 'must have closed rings of at least 4 positions (the first repeated last)');
  }
  if (type.endsWith('LineString') && depth === 1 && value.length < 2) {
    throw invalidParameter('intersects', 'must have lines of at least 2 positions');
  }
}

function checkPosition(value: unknown): void {
  const ok =
    Array.isArray(value) &&
    (value.length === 2 || value.length === 3) &&
    value.every((v) => typeof v === 'number' && Number.isFinite(v)) &&
    Math.abs(value[0] as number) <= 180 &&
    Math.abs(value[1] as number) <= 90;
  if (!ok) {
    throw invalidParameter('intersects', 'must have positions [longitude, latitude] within -180..180 and -90..90');
  }
}

const samePosition = (a: unknown, b: unknown) => Array.isArray(a) && Array.isArray(b) && a[0] === b[0] && a[1] === b[1];
