import { Prisma } from '@prisma/client';
import { LatLon } from '../query/coordinates';

// A bound point as geography. i.location::geography is written exactly as in the expression index
// imagery_location_geog_idx so the planner can use it.
export function geography(p: LatLon): Prisma.Sql {
  return Prisma.sql`ST_SetSRID(ST_MakePoint(${p.lon}::float8, ${p.lat}::float8), 4326)::geography`;
}

// Whether a record (imagery, alias i) faces the point: its heading within halfAngleDeg of the bearing
// to it. At the point itself there is no bearing (ST_Azimuth is NULL) and any record counts as facing it;
// elsewhere a record without a heading (NULL: unknown) faces nothing.
export function facesSql(p: LatLon, halfAngleDeg: number): Prisma.Sql {
  const bearing = Prisma.sql`degrees(ST_Azimuth(i.location::geography, ${geography(p)}))`;
  return Prisma.sql`coalesce(${headingsWithinSql(Prisma.sql`i.heading`, bearing, halfAngleDeg)}, ${bearing} IS NULL)`;
}

// Whether two headings (degrees, as SQL) are within `deg` of each other either way round the compass:
// the turn from one to the other brought into -180..180. NULL when either is NULL (a heading unknown).
// The one test of a record facing a point (facesSql) and of two records looking the same way
// (record-history.sql.ts).
export function headingsWithinSql(a: Prisma.Sql, b: Prisma.Sql, deg: number): Prisma.Sql {
  const turn = Prisma.sql`(${a} - ${b})`;
  return Prisma.sql`abs(${turn} - 360 * round(${turn} / 360)) <= ${deg}::float8`;
}

// Whether a record (alias i) shows the point: a 360-degree (interactive) image always; a flat one when it
// faces it (facesSql, within halfAngleDeg) or, with atPointM, stands within that many metres of it, where
// the bearing to the point is noise. The one test of the named address's views (place-pins.sql.ts) and
// of looking_at (filter-conditions.sql.ts).
export function showsPointSql(p: LatLon, halfAngleDeg: number, atPointM?: number): Prisma.Sql {
  const atPoint =
    atPointM === undefined
      ? Prisma.empty
      : Prisma.sql`ST_DWithin(i.location::geography, ${geography(p)}, ${atPointM}::float8) OR `;
  return Prisma.sql`(i.interactive OR ${atPoint}${facesSql(p, halfAngleDeg)})`;
}

// A bound point as geometry (SRID 4326): `i.location <-> planarPoint(p)` orders by planar distance,
// the KNN operator of the geometry GiST index.
export const planarPoint = (p: LatLon) =>
  Prisma.sql`ST_SetSRID(ST_MakePoint(${p.lon}::float8, ${p.lat}::float8), 4326)`;

// Sphere distance in metres; <-> on geography is also the KNN operator of the GiST index.
export function distanceSql(anchor: LatLon | null): Prisma.Sql {
  return anchor ? Prisma.sql`(i.location::geography <-> ${geography(anchor)})` : Prisma.sql`NULL`;
}
