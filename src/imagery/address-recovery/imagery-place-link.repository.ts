import { Injectable } from '@nestjs/common';
import { Prisma } from '@prisma/client';
import { GenerateSql, NoSql, SAMPLE_UUID, SqlSubject } from '../../database/generate-sql';
import { PrismaService } from '../../database/prisma.service';
import { READDRESSED_UPKEEP } from '../../search-index/vocabulary-upkeep.sql';
import { cellLocalitiesCtes } from './cell-localities.sql';
import { METRES_PER_DEGREE } from '../../common/earth';

// A record without an address of its own takes the address of the nearest `address` place, else of the
// nearest `street` place, within this many metres (on the spheroid); else its locality's label.
export const RECOVERY_RADIUS_M = 50;
// The nearest few places by planar distance in degrees (what the KNN index orders by) are re-ranked by
// their distance in metres on the sphere: a degree of longitude is shorter than one of latitude away from the
// equator, so the planar nearest is not always the nearest.
export const KNN_CANDIDATES = 3;
// A record farther than this from every locality (on the sphere) is in no town: without an address or
// street within RECOVERY_RADIUS_M, its address is its plus code (lis_plus_code), not the label of a
// town that may be thousands of kilometres away. It is still linked to the nearest locality, whose
// region and country are the best guess there is for the `region` filter.
export const LOCALITY_MAX_DISTANCE_M = 25_000;
// Records per relinking statement (each statement is its own transaction).
export const RELINK_BATCH_SIZE = 5000;

// How far the degree box around a record reaches (METRES_PER_DEGREE being the sphere's): a degree of
// latitude on the spheroid, where ST_DWithin measures, is up to 0.6% shorter (110,574 m at the
// equator), so the box reaches 1% past the radius and is never smaller than the circle it must hold.
const BOX_REACH_M = RECOVERY_RADIUS_M * 1.01;

export type AddressOrigin = 'own' | 'address' | 'street' | 'locality' | 'plus_code';

export interface RelinkBatch {
  examined: number;
  relinked: number;
  /** The last id examined (the keyset cursor), or null when nothing was left. */
  lastId: string | null;
}

// The nearest place of one kind (the kind filter matches the partial KNN index's predicate, so the
// index is usable). A street is measured to its line where it has one (the street index is on that
// shape), else to its point. `within`: only places within RECOVERY_RADIUS_M metres; the degree box is then an
// index condition too, so a record with nothing near costs one small index probe, not an index walk.
// `when`: the lookup runs only for rows where it holds (a one-time filter per row).
function nearest(kind: 'address' | 'street' | 'locality', within: boolean, when?: string): string {
  const shape = kind === 'street' ? 'coalesce(p.line, p.location)' : 'p.location';
  const box = within
    ? `AND ${shape} && ST_Expand(r.location,
           least(180, ${BOX_REACH_M} / (${METRES_PER_DEGREE} * greatest(cos(radians(ST_Y(r.location))), 1e-9))),
           ${BOX_REACH_M} / ${METRES_PER_DEGREE}.0)`
    : '';
  const metres = within ? `WHERE ST_DWithin(c.location::geography, r.location::geography, ${RECOVERY_RADIUS_M})` : '';
  return `
    SELECT c.id, c.name, c.label, c.locality, c.region_code, c.country_code, c.location
    FROM (
      SELECT p.id, p.name, p.label, p.locality, p.region_code, p.country_code, ${shape} AS location
      FROM places p
      WHERE ${when ? `${when} AND ` : ''}p.kind = '${kind}' ${box}
      ORDER BY ${shape} <-> r.location
      LIMIT ${KNN_CANDIDATES}
    ) c
    ${metres}
    ORDER BY ST_DistanceSphere(c.location, r.location), c.id
    LIMIT 1`;
}

// A street's address: its label when that already names the locality (the record's, or the street's
// own), else "street name, locality label"; just the label when no locality is known.
const STREET_ADDRESS = `CASE
      WHEN loc.id IS NULL
        OR strpos(lower(st.label), lower(loc.name)) > 0
        OR (st.locality IS NOT NULL AND strpos(lower(st.label), lower(st.locality)) > 0)
      THEN st.label
      ELSE st.name || ', ' || loc.label
    END`;

// The links of a set of rows: `rows` yields (id, location, recover), where `recover` says the row has
// no address of its own. Every row gets the locality it lies in or is nearest to (points only, so
// "lies in" is "nearest to"; no distance bound), and its region and country. Rows to
// recover get address, address_origin and place_id from the first of: the nearest address place
// within 50 m, the nearest street place within 50 m, the locality, the plus code (a locality is known
// but farther than LOCALITY_MAX_DISTANCE_M); all three are NULL when no place is known (an empty
// gazetteer), and for own addresses.
// The locality comes from the row's grid cell when it shares one (see cell-localities.sql.ts), else
// from a lookup of its own.
export function placeLinksSql(rows: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`
    WITH r AS MATERIALIZED (SELECT x.id, x.location, x.recover FROM (${rows}) x),
    ${Prisma.raw(cellLocalitiesCtes('r', KNN_CANDIDATES))}
    SELECT r.id, loc.id AS locality_id, loc.region_code, loc.country_code,
      CASE WHEN NOT r.recover THEN NULL WHEN adr.id IS NOT NULL THEN adr.label WHEN st.id IS NOT NULL THEN ${Prisma.raw(STREET_ADDRESS)}
           WHEN far.far THEN lis_plus_code(ST_Y(r.location), ST_X(r.location)) ELSE loc.label END AS address,
      CASE WHEN NOT r.recover THEN NULL WHEN adr.id IS NOT NULL THEN 'address' WHEN st.id IS NOT NULL THEN 'street'
           WHEN far.far THEN 'plus_code' WHEN loc.id IS NOT NULL THEN 'locality' END AS address_origin,
      CASE WHEN r.recover THEN coalesce(adr.id, st.id, CASE WHEN NOT far.far THEN loc.id END) END AS place_id
    FROM r
    LEFT JOIN cell_localities g ON g.id = r.id
    LEFT JOIN LATERAL (${Prisma.raw(nearest('locality', false, 'g.id IS NULL'))}) own ON true
    CROSS JOIN LATERAL (
      SELECT CASE WHEN g.id IS NULL THEN own.location ELSE g.loc_location END AS location
    ) nl
    CROSS JOIN LATERAL (
      SELECT nl.location IS NOT NULL
             AND ST_DistanceSphere(nl.location, r.location) > ${Prisma.raw(String(LOCALITY_MAX_DISTANCE_M))} AS far
    ) far
    CROSS JOIN LATERAL (
      SELECT CASE WHEN g.id IS NULL THEN own.id ELSE g.loc_id END AS id,
             CASE WHEN g.id IS NULL THEN own.name ELSE g.name END AS name,
             CASE WHEN g.id IS NULL THEN own.label ELSE g.label END AS label,
             CASE WHEN g.id IS NULL THEN own.region_code ELSE g.region_code END AS region_code,
             CASE WHEN g.id IS NULL THEN own.country_code ELSE g.country_code END AS country_code
    ) loc
    LEFT JOIN LATERAL (${Prisma.raw(nearest('address', true, 'r.recover'))}) adr ON true
    LEFT JOIN LATERAL (${Prisma.raw(nearest('street', true, 'r.recover AND adr.id IS NULL'))}) st ON true`;
}

// The columns linking writes, and the values it writes: a recovered address is replaced only by another
// recovered one, so when no place is known a row keeps what it has (an address is never emptied), and
// own addresses are never touched (only their locality, region and country).
export const LINK_COLUMNS = ['address', 'address_origin', 'place_id', 'locality_id', 'region_code', 'country_code'];
export const LINKED_VALUES = [
  'coalesce(l.address, t.address)',
  'CASE WHEN l.address IS NULL THEN t.address_origin ELSE l.address_origin END',
  'CASE WHEN l.address IS NULL THEN t.place_id ELSE l.place_id END',
  'l.locality_id',
  'l.region_code',
  'l.country_code',
];

// Applies the links to imagery rows (`rows` as for placeLinksSql plus old_tsv, their words; kept as the
// CTE `batch`), writing only rows whose links change; `up` returns their words before and after.
function applyLinksSql(rows: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`
    WITH batch AS MATERIALIZED (${rows}),
    links AS (${placeLinksSql(Prisma.sql`SELECT * FROM batch`)}),
    up AS (
      UPDATE imagery t SET (${Prisma.raw(LINK_COLUMNS.join(', '))}, updated_at) = (${Prisma.raw(LINKED_VALUES.join(', '))}, now())
      FROM links l JOIN batch b ON b.id = l.id
      WHERE t.id = l.id
        AND (${Prisma.raw(LINKED_VALUES.join(', '))}) IS DISTINCT FROM (${Prisma.raw(LINK_COLUMNS.map((c) => `t.${c}`).join(', '))})
      RETURNING t.id, b.old_tsv, t.address_tsv AS new_tsv
    )`;
}

// Where imagery is distributed (no triggers there): the records whose words the statement changed, for
// READDRESSED_UPKEEP; an empty column list on one server, where imagery's triggers keep the vocabulary.
function readdressedSql(distributed: boolean): Prisma.Sql {
  if (!distributed) return Prisma.empty;
  const changed = (column: string) =>
    Prisma.raw(
      `(SELECT coalesce(array_agg(${column} ORDER BY u.id), '{}') FROM up u WHERE u.old_tsv IS DISTINCT FROM u.new_tsv)`,
    );
  return Prisma.sql`, ${changed('u.id::text')} AS "readdressedIds", ${changed('u.old_tsv::text')} AS "wordsBefore",
      ${changed('u.new_tsv::text')} AS "wordsAfter"`;
}

interface Readdressed {
  readdressedIds?: string[];
  wordsBefore?: Array<string | null>;
  wordsAfter?: Array<string | null>;
}

// Which records relinking after a place import visits: those with a recovered address (a nearer or
// better place may now exist), and those not linked to any locality yet. Each walks its own partial
// index (imagery_recovered_idx, imagery_unlinked_idx) in id order.
export const RELINK_SCOPES = {
  recovered: Prisma.sql`i.address_origin <> 'own'`,
  unlinked: Prisma.sql`i.locality_id IS NULL`,
} as const;
export type RelinkScope = keyof typeof RELINK_SCOPES;
const SAMPLE_BATCH = { examined: 1, relinked: 1, lastId: SAMPLE_UUID };

// SQL for linking imagery rows to places; statements are built by static methods so that
// test/sql/repository-sql.ts can render them for review.
@SqlSubject((db) => new ImageryPlaceLinkRepository(db.prisma))
@Injectable()
export class ImageryPlaceLinkRepository {
  constructor(private readonly prisma: PrismaService) {}

  // Links the given records (one statement: all or nothing); returns how many rows changed.
  static linkIdsSql(ids: string[], distributed = false): Prisma.Sql {
    // One primary-key probe per id (LATERAL fenced with OFFSET 0): as a join, or as `id = ANY(array)`,
    // the planner may scan the whole catalogue.
    const rows = Prisma.sql`SELECT i.id, i.location, i.address_origin <> 'own' AS recover, i.address_tsv AS old_tsv
      FROM unnest(${ids}::uuid[]) AS given(id)
      CROSS JOIN LATERAL (SELECT t.id, t.location, t.address_origin, t.address_tsv FROM imagery t WHERE t.id = given.id OFFSET 0) i`;
    return Prisma.sql`${applyLinksSql(rows)}
    SELECT count(*)::int AS relinked${readdressedSql(distributed)} FROM up`;
  }

  // One keyset batch of a relinking pass: the next `limit` records of the scope after `after`.
  static relinkBatchSql(scope: RelinkScope, after: string | null, limit: number, distributed = false): Prisma.Sql {
    const batch = Prisma.sql`SELECT i.id, i.location, i.address_origin <> 'own' AS recover, i.address_tsv AS old_tsv
      FROM imagery i
      WHERE ${RELINK_SCOPES[scope]} AND (${after}::uuid IS NULL OR i.id > ${after}::uuid)
      ORDER BY i.id LIMIT ${limit}`;
    return Prisma.sql`${applyLinksSql(batch)}
    SELECT (SELECT count(*)::int FROM batch) AS examined, (SELECT count(*)::int FROM up) AS relinked,
      (SELECT b.id::text FROM batch b ORDER BY b.id DESC LIMIT 1) AS "lastId"${readdressedSql(distributed)}`;
  }

  @GenerateSql(
    { params: () => [[SAMPLE_UUID]], answers: [[{ relinked: 1 }]] },
    {
      name: 'imagery distributed: the records whose words changed returned too',
      sql: () => ImageryPlaceLinkRepository.linkIdsSql([SAMPLE_UUID], true),
    },
  )
  async linkIds(ids: string[]): Promise<number> {
    if (ids.length === 0) return 0;
    const row = await this.linkWithUpkeep<{ relinked: number }>((distributed) =>
      ImageryPlaceLinkRepository.linkIdsSql(ids, distributed),
    );
    return row.relinked;
  }

  @GenerateSql(
    { name: 'recovered addresses', params: () => ['recovered', null, 5000], answers: [[SAMPLE_BATCH]] },
    { name: 'records without a locality', params: () => ['unlinked', SAMPLE_UUID, 5000], answers: [[SAMPLE_BATCH]] },
    {
      name: 'imagery distributed: the records whose words changed returned too',
      sql: () => ImageryPlaceLinkRepository.relinkBatchSql('recovered', null, 5000, true),
    },
    { name: 'imagery distributed: their words counted', sql: () => READDRESSED_UPKEEP.countWords },
    { name: 'imagery distributed: their ranked-list entries removed', sql: () => READDRESSED_UPKEEP.unrank },
  )
  async relinkBatch(scope: RelinkScope, after: string | null, limit: number): Promise<RelinkBatch> {
    const { examined, relinked, lastId } = await this.linkWithUpkeep<RelinkBatch>((distributed) =>
      ImageryPlaceLinkRepository.relinkBatchSql(scope, after, limit, distributed),
    );
    return { examined, relinked, lastId };
  }

  // One linking statement; where imagery is distributed, in a transaction with the vocabulary's and
  // ranked lists' upkeep for the records whose address it changed (what imagery's triggers do on one
  // server; see READDRESSED_UPKEEP).
  @NoSql('runs linkIds or relinkBatch, and READDRESSED_UPKEEP (imagery-import.session.sql shows the same upkeep)')
  private async linkWithUpkeep<T>(statement: (distributed: boolean) => Prisma.Sql): Promise<T> {
    if (!this.prisma.imageryDistributed) {
      const [row] = await this.prisma.$queryRaw<T[]>(statement(false));
      return row;
    }
    // On a bulk connection: with its upkeep, a statement on the cluster can outlast the API's statement
    // timeout.
    const client = await this.prisma.openBulkConnection('lis-relink');
    try {
      await client.query('BEGIN');
      const sql = statement(true);
      const { rows } = await client.query<T & Readdressed>(sql.text, sql.values);
      const ids = rows[0].readdressedIds ?? [];
      if (ids.length > 0) {
        await client.query(READDRESSED_UPKEEP.countWords, [rows[0].wordsBefore, rows[0].wordsAfter]);
        await client.query(READDRESSED_UPKEEP.unrank, [ids]);
      }
      await client.query('COMMIT');
      return rows[0];
    } finally {
      // Ending the connection rolls back what was not committed.
      await client.end().catch(() => undefined);
    }
  }
}
