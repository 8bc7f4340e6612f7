import { Prisma } from '@prisma/client';
import { geography, headingsWithinSql } from './spatial.sql';

// "Every date at a spot": the other records taken within HISTORY_DISTANCE_M of a record and looking
// the same way, newest first (docs/api.md, include history).
/** Metres between two positions that count as one spot (a consumer GPS fix is good to a few metres). */
export const HISTORY_DISTANCE_M = 10;
/** Degrees either way between two headings that count as looking the same way. */
export const HISTORY_ANGLE_DEG = 30;
/** Other dates given per record at most. */
export const HISTORY_MAX = 10;

export interface HistoryOf {
  id: string;
  lon: number;
  lat: number;
  heading: number | null;
  interactive: boolean;
}

// A panorama looks every way: it is in the history of every record at its spot. A flat image is in a
// flat image's history when their headings are within HISTORY_ANGLE_DEG (an unknown heading matches
// none), and in no panorama's (it shows a part of it). `other` is the alias of the other record; `of`
// the record whose history it would be in, as SQL of its heading and interactive flag.
export function looksTheSameWaySql(other: string, of: { heading: Prisma.Sql; interactive: Prisma.Sql }): Prisma.Sql {
  const o = Prisma.raw(other);
  const within = headingsWithinSql(Prisma.sql`${o}.heading`, of.heading, HISTORY_ANGLE_DEG);
  return Prisma.sql`(${o}.interactive OR (NOT ${of.interactive} AND ${within}))`;
}

// One subquery per record, each reading the geography index (imagery_location_geog_idx) around one
// constant point, so a distributed imagery table plans each as its own multi-shard query.
export function recordHistorySql(records: readonly HistoryOf[]): Prisma.Sql {
  const parts = records.map((r) => {
    const sameWay = looksTheSameWaySql('i', {
      heading: Prisma.sql`${r.heading}::float8`,
      interactive: Prisma.sql`${r.interactive}::boolean`,
    });
    return Prisma.sql`(
      SELECT ${r.id}::text AS "of", i.id::text AS id, to_char(i.captured_at, 'YYYY-MM-DD') AS "capturedAt",
             i.image_url AS "imageUrl"
      FROM imagery i
      WHERE ST_DWithin(i.location::geography, ${geography(r)}, ${HISTORY_DISTANCE_M}::float8)
        AND i.id <> ${r.id}::uuid AND ${sameWay}
      ORDER BY i.captured_at DESC, i.id DESC
      LIMIT ${HISTORY_MAX})`;
  });
  return Prisma.join(parts, ' UNION ALL ');
}

// newest_per_spot: a record (alias i) is kept when no record of its history is newer (by capture
// date, then id): the newest image of each spot and direction.
export function newestAtItsSpotSql(): Prisma.Sql {
  const sameWay = looksTheSameWaySql('n', { heading: Prisma.sql`i.heading`, interactive: Prisma.sql`i.interactive` });
  return Prisma.sql`NOT EXISTS (
    SELECT 1 FROM imagery n
    WHERE ST_DWithin(n.location::geography, i.location::geography, ${HISTORY_DISTANCE_M}::float8)
      AND (n.captured_at, n.id) > (i.captured_at, i.id) AND ${sameWay})`;
}
