import turfBearing from '@turf/bearing';
import turfDistance from '@turf/distance';

// Distances and bearings between photo positions (Turf's great-circle formulas).

export interface LatLon {
  lat: number;
  lon: number;
}

/** Metres between two points. */
export function distanceM(a: LatLon, b: LatLon): number {
  return turfDistance([a.lon, a.lat], [b.lon, b.lat], { units: 'meters' });
}

/** The initial compass bearing from a to b, in [0, 360). */
export function bearingDeg(a: LatLon, b: LatLon): number {
  const d = turfBearing([a.lon, a.lat], [b.lon, b.lat]);
  return ((d % 360) + 360) % 360;
}

/** The smallest turn between two headings, in [0, 180]. */
export function turnDeg(a: number, b: number): number {
  const d = Math.abs(a - b) % 360;
  return d > 180 ? 360 - d : d;
}
