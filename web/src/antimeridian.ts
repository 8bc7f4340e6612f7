import type { Geometry, Position } from 'geojson';

// world-atlas keeps Russia, Fiji and Antarctica whole across the antimeridian (made for d3's spherical
// clipping). A flat map reads such a ring as a band around the world, so longitudes are unwrapped to
// run continuously past +-180 (the map draws them on its world copies), and a ring that still goes all
// the way round encloses a pole and is closed through it. No DOM here: unit-tested in test/unit.

function unwrap(line: Position[]): Position[] {
  let offset = 0;
  return line.map((point, i) => {
    if (i > 0) {
      const step = point[0] - line[i - 1][0];
      if (step > 180) offset -= 360;
      else if (step < -180) offset += 360;
    }
    return [point[0] + offset, point[1]];
  });
}

function unwrapRing(ring: Position[]): Position[] {
  const out = unwrap(ring);
  const first = out[0];
  const last = out[out.length - 1];
  if (Math.abs(last[0] - first[0]) < 180) return out;
  const pole = out.reduce((sum, p) => sum + p[1], 0) < 0 ? -90 : 90;
  return [...out, [last[0], pole], [first[0], pole], first];
}

// d3 also writes a zero-area ring along a pole, meaningless on a flat map.
const alongPole = (ring: Position[]) => ring.every((p) => Math.abs(p[1]) >= 89.999);

function unwrapPolygon(polygon: Position[][]): Position[][] {
  return polygon.filter((ring) => !alongPole(ring)).map(unwrapRing);
}

export function unwrapAntimeridian<G extends Geometry>(geometry: G): G {
  switch (geometry.type) {
    case 'Polygon':
      return { ...geometry, coordinates: unwrapPolygon(geometry.coordinates) };
    case 'MultiPolygon':
      return {
        ...geometry,
        coordinates: geometry.coordinates.map(unwrapPolygon).filter((polygon) => polygon.length > 0),
      };
    case 'LineString':
      return { ...geometry, coordinates: unwrap(geometry.coordinates) };
    case 'MultiLineString':
      return { ...geometry, coordinates: geometry.coordinates.map(unwrap) };
    default:
      return geometry;
  }
}
