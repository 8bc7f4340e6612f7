// One point for a place whatever its geometry, found cheaply (no geometry library, one pass over the
// vertices): a point is itself; a line gives its middle vertex, which lies on the line; a polygon
// gives the mean of its outer ring's vertices, which lies inside buildings and other compact shapes
// (a concave outline may put it just outside); a multi-geometry uses its first part.
// Returns null for anything without usable coordinates; the caller's validation says why.
export function representativePoint(geometry: unknown): [number, number] | null {
  if (typeof geometry !== 'object' || geometry === null) return null;
  const { type, coordinates } = geometry as { type?: unknown; coordinates?: unknown };
  switch (type) {
    case 'Point':
      return position(coordinates);
    case 'MultiPoint':
    case 'LineString':
      return Array.isArray(coordinates) ? position(coordinates[Math.floor(coordinates.length / 2)]) : null;
    case 'MultiLineString':
      return Array.isArray(coordinates)
        ? representativePoint({ type: 'LineString', coordinates: coordinates[0] })
        : null;
    case 'Polygon':
      return Array.isArray(coordinates) ? ringMean(coordinates[0]) : null;
    case 'MultiPolygon':
      return Array.isArray(coordinates) && Array.isArray(coordinates[0]) ? ringMean(coordinates[0][0]) : null;
    default:
      return null;
  }
}

function position(value: unknown): [number, number] | null {
  if (!Array.isArray(value) || value.length < 2 || typeof value[0] !== 'number' || typeof value[1] !== 'number')
    return null;
  return [value[0], value[1]];
}

// The mean of a closed ring's vertices (its closing vertex, a repeat of the first, is left out).
function ringMean(ring: unknown): [number, number] | null {
  if (!Array.isArray(ring) || ring.length === 0) return null;
  const count = ring.length > 1 ? ring.length - 1 : 1;
  let lon = 0;
  let lat = 0;
  for (let i = 0; i < count; i++) {
    const p = position(ring[i]);
    if (!p) return null;
    lon += p[0];
    lat += p[1];
  }
  return [lon / count, lat / count];
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
