import { Prisma } from '@prisma/client';
import { circleBounds } from './circle-bounds';
import { SearchFilters } from '../planning/search-planner';
import { distanceSql, showsPointSql } from './spatial.sql';
import { inRegionSql } from './region.sql';
import { newestAtItsSpotSql } from './record-history.sql';

// The WHERE conditions of a request's filters (alias i = imagery); the same for every strategy.
// `unindexed`: the same tests written so that no index of imagery.location serves them, for a walk
// of another index that tests them row by row (cellWalkSql): ST_Intersects as _ST_Intersects, and a
// circle's box as _ST_Intersects too, which passes the same rows as && once the sphere distance is
// tested (every point within the radius lies inside the box; && only adds points just outside it).
// _ST_Intersects' declared cost (10000) is what makes the planner stop each walk after its page
// rather than read the whole cell and sort it (which it did with the box as geometry_overlaps).
// `exactBox`: a circle's box as ST_Intersects, the bbox's test, for a read that stops after its first
// rows (cellWalkSql's count): its declared cost makes the planner prefer an index scan of the
// geometry index, which stops at the LIMIT, where for && it may pick a bitmap scan, which lists every
// match of the box first (a cost choice, not a guarantee: a deep page's larger LIMIT may still
// get the bitmap). The rows are the same once the sphere distance is tested (as above).
export function filterConditions(f: SearchFilters, { unindexed = false, exactBox = false } = {}): Prisma.Sql[] {
  const where: Prisma.Sql[] = [];
  // A radius: the box around the circle for the geometry GiST index (its statistics give the planner
  // true row estimates, which ST_DWithin on geography does not), then the exact sphere distance.
  for (const c of f.circles) {
    const { west, south, east, north } = circleBounds(c, c.radiusM);
    const envelope = (w: number, e: number) =>
      Prisma.sql`ST_MakeEnvelope(${w}::float8, ${south}::float8, ${e}::float8, ${north}::float8, 4326)`;
    const box = (w: number, e: number) =>
      unindexed
        ? Prisma.sql`_ST_Intersects(i.location, ${envelope(w, e)})`
        : exactBox
          ? Prisma.sql`ST_Intersects(i.location, ${envelope(w, e)})`
          : Prisma.sql`i.location && ${envelope(w, e)}`;
    where.push(west <= east ? box(west, east) : Prisma.sql`(${box(west, 180)} OR ${box(-180, east)})`);
    where.push(Prisma.sql`${distanceSql(c)} <= ${c.radiusM}::float8`);
  }
  if (f.bbox) {
    const { west, south, east, north } = f.bbox;
    // ST_Intersects: the GiST && test (single-precision boxes) plus an exact one, edges included.
    const intersects = Prisma.raw(unindexed ? '_ST_Intersects' : 'ST_Intersects');
    const box = (w: number, e: number) =>
      Prisma.sql`${intersects}(i.location, ST_MakeEnvelope(${w}::float8, ${south}::float8, ${e}::float8, ${north}::float8, 4326))`;
    // Across the antimeridian: the part east of west, and the part west of east.
    where.push(west < east ? box(west, east) : Prisma.sql`(${box(west, 180)} OR ${box(-180, east)})`);
  }
  if (f.capturedAfter !== undefined) where.push(Prisma.sql`i.captured_at >= ${f.capturedAfter}::date`);
  if (f.capturedBefore !== undefined) where.push(Prisma.sql`i.captured_at <= ${f.capturedBefore}::date`);
  if (f.interactive !== undefined) where.push(Prisma.sql`i.interactive = ${f.interactive}`);
  if (f.heading) {
    // A record without a heading (NULL) fails both forms: it faces no sector.
    const { from, to, toInclusive } = f.heading;
    const upper = toInclusive ? Prisma.sql`i.heading <= ${to}::float8` : Prisma.sql`i.heading < ${to}::float8`;
    where.push(
      from <= to
        ? Prisma.sql`(i.heading >= ${from}::float8 AND ${upper})`
        : Prisma.sql`(i.heading >= ${from}::float8 OR ${upper})`,
    );
  }
  if (f.lookingAt) {
    // Showing the target: facing it (an image at the target itself qualifies, one without a heading
    // elsewhere does not), or a 360-degree (interactive) image.
    where.push(showsPointSql(f.lookingAt, f.lookingAt.halfFovDeg));
  }
  // By the place hierarchy: the codes of the locality each record was linked to (see places).
  if (f.region !== undefined) where.push(inRegionSql('i', f.region));
  if (f.newestPerSpot) where.push(newestAtItsSpotSql());
  return where;
}
