import { Prisma } from '@prisma/client';

// The region filter, the one rule every search applies: a country (ISO 3166-1 alpha-2, "LI") is the
// row's country_code, a region within one (ISO 3166-2, "US-IL") its region_code. Imagery takes both
// codes from the locality it was linked to; places carry their own (docs/api.md, Regions).
// `orUnknown`: rows without that code are kept too (pois a file gave no country: a category search
// still finds them, and their imagery is filtered by its own codes).
export function inRegionSql(alias: 'i' | 'p', region: string, orUnknown = false): Prisma.Sql {
  const column = Prisma.raw(`${alias}.${region.includes('-') ? 'region_code' : 'country_code'}`);
  return orUnknown ? Prisma.sql`(${column} IS NULL OR ${column} = ${region})` : Prisma.sql`${column} = ${region}`;
}
