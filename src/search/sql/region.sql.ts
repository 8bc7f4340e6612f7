import { Prisma } from '@prisma/client';

// The region filter, the one rule every search applies: a country (ISO 3166-1 alpha-2, "LI") is the
// row's country_code, a region within one (ISO 3166-2, "US-IL") its region_code. Imagery takes both
// codes from the locality it was linked to; places carry their own (docs/api.md, Regions).
export function inRegionSql(alias: 'i' | 'p', region: string): Prisma.Sql {
  const table = Prisma.raw(alias);
  return region.includes('-')
    ? Prisma.sql`${table}.region_code = ${region}`
    : Prisma.sql`${table}.country_code = ${region}`;
}
