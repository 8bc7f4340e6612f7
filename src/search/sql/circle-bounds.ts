import { EARTH_RADIUS_M } from '../../common/earth';
import type { LatLon } from '../query/coordinates';

export interface Bounds {
  west: number;
  south: number;
  east: number;
  north: number;
}

// A longitude/latitude box that holds every point within `radiusM` of the centre (on the sphere),
// with a small margin: the index-friendly stand-in for a radius. west > east when the box crosses
// the antimeridian; a circle over a pole spans every longitude.
export function circleBounds(centre: LatLon, radiusM: number): Bounds {
  const angular = (radiusM / EARTH_RADIUS_M) * 1.0001;
  const deg = (r: number) => (r * 180) / Math.PI;
  const south = centre.lat - deg(angular) - 1e-9;
  const north = centre.lat + deg(angular) + 1e-9;
  if (south <= -90 || north >= 90)
    return { west: -180, south: Math.max(-90, south), east: 180, north: Math.min(90, north) };
  const dLon = deg(Math.asin(Math.min(1, Math.sin(angular) / Math.cos((centre.lat * Math.PI) / 180)))) + 1e-9;
  if (dLon >= 180) return { west: -180, south, east: 180, north };
  const wrap = (lon: number) => (lon < -180 ? lon + 360 : lon > 180 ? lon - 360 : lon);
  return { west: wrap(centre.lon - dLon), south, east: wrap(centre.lon + dLon), north };
}
