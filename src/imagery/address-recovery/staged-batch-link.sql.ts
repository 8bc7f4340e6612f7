import { Prisma } from '@prisma/client';
import { LINK_COLUMNS, LINKED_VALUES, placeLinksSql } from './imagery-place-link.repository';

// An import batch linked before it reaches the catalogue, by the linker's rules (placeLinksSql, the
// columns and values it writes), on one server and where imagery is distributed.

// Linking a staged import batch in place: a temporary table with the staged columns (lon, lat; NULL
// addresses for records without one) and the link columns, plus `settled`. Two statements, plain text
// without parameters for the importer's own connections (`staging` is a generated table name):
//  - settle: a record already stored at the same point, with a locality, keeps its stored links, and
//    when it has no address of its own (none given, or the same recovered one an export wrote) its
//    stored recovered address too. Re-importing a file therefore looks nothing up (relinking after a
//    place import is what refreshes links); the stored row is probed by primary key (LATERAL, fenced
//    with OFFSET 0 so the planner cannot turn it into a scan of the catalogue). The fence holds the id
//    alone: with the locality test inside it, statistics taken before a load (few linked records) let
//    the planner read the locality index for every staged row instead, minutes for one batch into a
//    catalogue that already holds records (docs/data.md#a-load-into-a-catalogue-that-holds-records).
//  - link: every other record is linked by the same rules and values as stored rows.
export function linkStagedSql(staging: string): { settle: string; link: string } {
  const table = Prisma.raw(staging);
  const settle = Prisma.sql`
    UPDATE ${table} t SET (${Prisma.raw(LINK_COLUMNS.join(', '))}, settled) = (
        CASE WHEN c.keep_address THEN c.address ELSE t.address END,
        CASE WHEN c.keep_address THEN c.address_origin ELSE t.address_origin END,
        CASE WHEN c.keep_address THEN c.place_id ELSE t.place_id END,
        c.locality_id, c.region_code, c.country_code, true)
    FROM (
      SELECT s.ctid AS row_id, cur.*,
        cur.address_origin <> 'own' AND (s.address IS NULL OR (s.address, s.address_origin) = (cur.address, cur.address_origin)) AS keep_address,
        s.address IS NOT NULL AND s.address_origin = 'own' AS own
      FROM ${table} s
      CROSS JOIN LATERAL (
        SELECT p.address, p.address_origin, p.place_id, p.locality_id, p.region_code, p.country_code
        FROM (
          SELECT i.address, i.address_origin, i.place_id, i.locality_id, i.region_code, i.country_code, i.location
          FROM imagery i
          WHERE i.id = s.id
          OFFSET 0
        ) p
        WHERE p.locality_id IS NOT NULL AND ST_X(p.location) = s.lon AND ST_Y(p.location) = s.lat
      ) cur
    ) c
    WHERE t.ctid = c.row_id AND (c.own OR c.keep_address)`;
  const rows = Prisma.sql`SELECT s.id, ST_SetSRID(ST_MakePoint(s.lon, s.lat), 4326) AS location,
      (s.address IS NULL OR s.address_origin <> 'own') AS recover
    FROM ${table} s
    WHERE NOT s.settled`;
  const link = Prisma.sql`
    UPDATE ${table} t SET (${Prisma.raw(LINK_COLUMNS.join(', '))}) = (${Prisma.raw(LINKED_VALUES.join(', '))})
    FROM (${placeLinksSql(rows)}) l
    WHERE t.id = l.id`;
  if (settle.values.length + link.values.length > 0) throw new Error('linkStagedSql must not take parameters');
  return { settle: settle.text, link: link.text };
}

// The same two steps where imagery is distributed (Citus, docs/scaling.md#citus): Citus plans no UPDATE
// of a temporary table FROM a read of imagery or of a reference table (places): "relation ... is not
// distributed". It plans an INSERT into a temporary table from such a read (it brings the rows back to
// the coordinator), so each step reads into a temporary table of its own first, then updates the staging
// table from that table alone, on the coordinator:
//  - the import's readStored (imagery-import-distributed.sql.ts) copies the batch's stored rows into
//    `stored`; settleFromStored is settle's update from those with a locality (the same rules: the point
//    compared, own addresses keep theirs);
//  - linkInto writes the links of the records not settled into `links` (placeLinksSql, as link reads
//    them); linkFromLinks is link's update from them.
// `stored` and `links` are made by createStored (there) and createLinks and emptied at every commit.
export function linkStagedCitusSql(t: { staging: string; stored: string; links: string }) {
  const cols = LINK_COLUMNS.join(', ');
  const rows = Prisma.sql`SELECT s.id, ST_SetSRID(ST_MakePoint(s.lon, s.lat), 4326) AS location,
      (s.address IS NULL OR s.address_origin <> 'own') AS recover
    FROM ${Prisma.raw(t.staging)} s
    WHERE NOT s.settled`;
  const links = placeLinksSql(rows);
  if (links.values.length > 0) throw new Error('linkStagedCitusSql must not take parameters');
  return {
    createLinks: `CREATE TEMP TABLE ${t.links} (
        id uuid NOT NULL, locality_id uuid, region_code text, country_code text, address text,
        address_origin text, place_id uuid
      ) ON COMMIT DELETE ROWS`,
    settleFromStored: `
    UPDATE ${t.staging} t SET (${cols}, settled) = (
        CASE WHEN c.keep_address THEN c.address ELSE t.address END,
        CASE WHEN c.keep_address THEN c.address_origin ELSE t.address_origin END,
        CASE WHEN c.keep_address THEN c.place_id ELSE t.place_id END,
        c.locality_id, c.region_code, c.country_code, true)
    FROM (
      SELECT s.id, cur.${LINK_COLUMNS.join(', cur.')},
        cur.address_origin <> 'own' AND (s.address IS NULL OR (s.address, s.address_origin) = (cur.address, cur.address_origin)) AS keep_address,
        s.address IS NOT NULL AND s.address_origin = 'own' AS own
      FROM ${t.staging} s
      JOIN ${t.stored} cur ON cur.id = s.id AND cur.locality_id IS NOT NULL AND cur.lon = s.lon AND cur.lat = s.lat
    ) c
    WHERE t.id = c.id AND (c.own OR c.keep_address)`,
    linkInto: `
    INSERT INTO ${t.links} (id, locality_id, region_code, country_code, address, address_origin, place_id)
    ${links.text}`,
    linkFromLinks: `
    UPDATE ${t.staging} t SET (${cols}) = (${LINKED_VALUES.join(', ')})
    FROM ${t.links} l
    WHERE t.id = l.id`,
  };
}
