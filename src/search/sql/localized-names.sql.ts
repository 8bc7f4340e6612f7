import { Prisma } from '@prisma/client';

// The names by language (places.names, only the languages asked for) of the places an answer shows,
// and of the parts their labels are made of: the street of that name nearest the place (within
// PART_STREET_DEGREES), the locality of that name nearest it (within PART_LOCALITY_DEGREES), the
// region place of its code. Each part is read from a partial index over the places of its kind that have
// names (migration place_names): a nearest-first walk bounded by its box, or the region's code.

/** How far a label's street may lie from its place, in degrees (about a kilometre). */
export const PART_STREET_DEGREES = 0.01;
/** How far a label's locality may lie from its place, in degrees (about 30 km). */
export const PART_LOCALITY_DEGREES = 0.3;

// The names of `alias` in the languages of ${languages}, or null.
const namesIn = (alias: string, languages: string[]) =>
  Prisma.sql`(SELECT jsonb_object_agg(n.key, n.value) FROM jsonb_each_text(${Prisma.raw(alias)}.names) n
              WHERE n.key = ANY(${languages}::text[]))`;

export function localizedNamesSql(placeIds: string[], languages: string[]): Prisma.Sql {
  return Prisma.sql`
    SELECT p.id::text AS id, p.kind, p.name, p.label, p.street, p.locality, p.region,
           p.region_code AS "regionCode", p.country_code AS "countryCode", ${namesIn('p', languages)} AS names,
           (SELECT ${namesIn('s', languages)} FROM places s
             WHERE p.street IS NOT NULL AND s.kind = 'street' AND s.name = p.street AND s.names IS NOT NULL AND s.names ?| ${languages}::text[]
               AND ST_DWithin(COALESCE(s.line, s.location), p.location, ${PART_STREET_DEGREES})
             ORDER BY COALESCE(s.line, s.location) <-> p.location LIMIT 1) AS "streetNames",
           (SELECT ${namesIn('l', languages)} FROM places l
             WHERE p.locality IS NOT NULL AND l.kind = 'locality' AND l.name = p.locality AND l.names IS NOT NULL AND l.names ?| ${languages}::text[]
               AND ST_DWithin(l.location, p.location, ${PART_LOCALITY_DEGREES})
             ORDER BY l.location <-> p.location LIMIT 1) AS "localityNames",
           (SELECT ${namesIn('r', languages)} FROM places r
             WHERE p.region_code IS NOT NULL AND r.kind = 'region' AND r.region_code = p.region_code
               AND r.names IS NOT NULL AND r.names ?| ${languages}::text[]
             LIMIT 1) AS "regionNames"
    FROM places p
    WHERE p.id = ANY(${placeIds}::uuid[])`;
}
