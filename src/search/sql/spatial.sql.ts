import { Prisma } from '@prisma/client';
import { LatLon } from '../coordinates';

// A bound point as geography. i.location::geography is written exactly as in the expression index
// imagery_location_geog_idx so the planner can use it.
export function geography(p: LatLon): Prisma.Sql {
  return Prisma.sql`ST_SetSRID(ST_MakePoint(${p.lon}::float8, ${p.lat}::float8), 4326)::geography`;
}

// A bound point as geometry (SRID 4326): `i.location <-> planarPoint(p)` orders by planar distance,
// the KNN operator of the geometry GiST index.
export const planarPoint = (p: LatLon) =>
  Prisma.sql`ST_SetSRID(ST_MakePoint(${p.lon}::float8, ${p.lat}::float8), 4326)`;

// Sphere distance in metres; <-> on geography is also the KNN operator of the GiST index.
export function distanceSql(anchor: LatLon | null): Prisma.Sql {
  return anchor ? Prisma.sql`(i.location::geography <-> ${geography(anchor)})` : Prisma.sql`NULL`;
}
