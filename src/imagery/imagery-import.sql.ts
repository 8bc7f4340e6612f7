import { randomBytes } from 'node:crypto';
import { bulkUpsertSql } from '../database/bulk-import/bulk-upsert.sql';
import { StagedColumn, stagingSql } from '../database/bulk-import/staged-columns';
import { ImageryRecord } from './imagery-feature';
import { linkStagedCitusSql, linkStagedSql } from './address-recovery/staged-batch-link.sql';
import { distributedImportSql } from './imagery-import-distributed.sql';
import { upsertPhotosSql } from './photo-details/photo-details';

// Every statement of a bulk import of imagery (see ImageryImportSession).

// The columns a batch is staged in, in COPY order.
export const IMAGERY_STAGED: ReadonlyArray<StagedColumn<ImageryRecord>> = [
  ['id', 'uuid', (r) => r.id],
  ['address', 'text', (r) => r.address],
  ['address_origin', 'text', (r) => r.addressOrigin],
  ['source', 'text', (r) => r.source],
  ['captured_at', 'date', (r) => r.capturedAt],
  ['heading', 'float8', (r) => r.heading],
  ['interactive', 'boolean', (r) => r.interactive],
  ['image_url', 'text', (r) => r.imageUrl],
  ['lon', 'float8', (r) => r.lon],
  ['lat', 'float8', (r) => r.lat],
];
// What a record holds; a record whose values all equal these is unchanged and not written.
const DATA_COLUMNS = [
  'address',
  'address_origin',
  'place_id',
  'locality_id',
  'region_code',
  'country_code',
  'captured_at',
  'heading',
  'interactive',
  'image_url',
  'location',
  'source',
];

/** Names of one connection's temporary tables. */
export interface ImportTables {
  staging: string;
  seen: string;
  /** Where imagery is distributed: the batch's stored rows, its links (see linkStagedCitusSql), and the
   * list --delete-missing deletes (see imagery-import-distributed.sql.ts). */
  stored: string;
  links: string;
  missing: string;
}

// Fresh names per connection: temporary tables are session-local on PostgreSQL, but the built-in
// database (PGlite) has one session for all connections, where a killed import's tables outlive it.
export function importTables(): ImportTables {
  const suffix = randomBytes(6).toString('hex');
  return {
    staging: `imagery_import_staging_${suffix}`,
    seen: `imagery_import_seen_${suffix}`,
    stored: `imagery_import_stored_${suffix}`,
    links: `imagery_import_links_${suffix}`,
    missing: `imagery_import_missing_${suffix}`,
  };
}

// Every statement of a bulk import, for one connection's tables (names come from importTables, never
// from input).
export function importSql(t: ImportTables) {
  // Records of the source that the whole input did not contain (a hash anti-join on the seen ids).
  const missingWhere = `t.source = $1 AND NOT EXISTS (SELECT 1 FROM ${t.seen} s WHERE s.id = t.id)`;
  // The batch as imagery rows; $1: the import's --source.
  const incoming = `
      SELECT s.id, s.address, s.address_origin, s.place_id, s.locality_id, s.region_code, s.country_code,
             s.captured_at, s.heading, s.interactive, s.image_url,
             ST_SetSRID(ST_MakePoint(s.lon, s.lat), 4326) AS location, coalesce($1::text, s.source) AS source
      FROM ${t.staging} s`;

  return {
    // ON COMMIT DELETE ROWS empties the staging table after every batch (on rollback it was never filled).
    // address is NULL for a record without one until linking fills it in; the links are filled in by
    // linking too. Only this table ever holds a record without an address.
    createStaging: `
      CREATE TEMP TABLE ${t.staging} (
        id uuid NOT NULL, address text, address_origin text NOT NULL, source text, captured_at date NOT NULL,
        heading float8, interactive boolean NOT NULL, image_url text NOT NULL, lon float8 NOT NULL,
        lat float8 NOT NULL, place_id uuid, locality_id uuid, region_code text, country_code text,
        settled boolean NOT NULL DEFAULT false
      ) ON COMMIT DELETE ROWS`,
    createSeen: `CREATE TEMP TABLE ${t.seen} (id uuid NOT NULL)`,
    ...stagingSql(t.staging, IMAGERY_STAGED),

    // Every staged record gets its locality, region and country; those without an address of their own
    // get a recovered one (the rules are the linker's, in one place; see linkStagedSql).
    ...linkStagedSql(t.staging),
    // The same where imagery is distributed (Citus), in steps Citus plans (see linkStagedCitusSql), with
    // the upsert comparing with the stored rows read first and the triggers' upkeep done by the batch
    // (see imagery-import-distributed.sql.ts).
    citus: {
      ...linkStagedCitusSql(t),
      ...distributedImportSql(t),
      ...bulkUpsertSql({ table: 'imagery', dataColumns: DATA_COLUMNS, incoming, current: t.stored }),
    },
    // Records left without an address: no place is known to recover one from. They are rejected.
    takeUnrecoverable: `DELETE FROM ${t.staging} WHERE address IS NULL RETURNING id::text AS id`,

    // One set-based upsert per batch (or, in a dry run, the classification); $1: the import's --source.
    ...bulkUpsertSql({ table: 'imagery', dataColumns: DATA_COLUMNS, incoming }),

    // The details of the batch's photo records (the photos table), for the records the batch kept.
    upsertPhotos: upsertPhotosSql(t.staging),

    rememberSeen: `INSERT INTO ${t.seen} (id) SELECT id FROM ${t.staging}`,
    copySeenOut: `COPY ${t.seen} (id) TO STDOUT`,
    copySeenIn: `COPY ${t.seen} (id) FROM STDIN`,
    // Indexed once every id is in (a probe per catalogue row of the source, however the planner
    // misjudges how many that is: statistics from before the load), then analyzed.
    indexSeen: `CREATE INDEX IF NOT EXISTS ids_of_${t.seen} ON ${t.seen} (id)`,
    analyzeSeen: `ANALYZE ${t.seen}`,
    // The records and, in the same statement, the photo details of those made from photos.
    deleteMissing: `
      WITH gone AS (DELETE FROM imagery t WHERE ${missingWhere} RETURNING t.id),
      photos_gone AS (DELETE FROM photos p WHERE p.id IN (SELECT g.id FROM gone g))
      SELECT count(*)::int AS n FROM gone`,
    countMissing: `SELECT count(*)::int AS n FROM imagery t WHERE ${missingWhere}`,
    drop: `DROP TABLE IF EXISTS ${t.staging}, ${t.seen}, ${t.stored}, ${t.links}, ${t.missing}`,
  };
}
