import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { BulkImportSession, UpsertCounts, Writer } from '../database/bulk-import/bulk-import-session';
import {
  BUILT_IN_SESSION,
  GenerateSql,
  POSTGRES_SESSION,
  SAMPLE_SOURCE,
  SAMPLE_UUID,
  SAMPLE_UUID_2,
  SqlSubject,
} from '../database/generate-sql';
import { PLACE_STAGED, placeImportSql } from './place-import.sql';
import { PlaceRecord } from './place-record';
import { PlaceException, PlaceExceptionCode } from './place.exception';

export interface PlaceImportSessionOptions {
  source: string;
  /** Classify places (insert/update/unchanged) without changing the table. */
  dryRun: boolean;
}

type PlaceSql = ReturnType<typeof placeImportSql>;

// Namespaces the per-source advisory lock (apart from the imagery import's and the migrator's).
const PLACES_LOCK_CLASS = 'lis-places-import';

// The places importer's connection (see BulkImportSession): one, so batches commit in input order.
@SqlSubject((db) => {
  db.answer(...POSTGRES_SESSION);
  return PlaceImportSession.open(db.client(), { source: SAMPLE_SOURCE, dryRun: false });
})
export class PlaceImportSession extends BulkImportSession<PlaceRecord, PlaceSql> {
  private constructor(writers: Array<Writer<PlaceSql>>, options: PlaceImportSessionOptions, builtIn: boolean) {
    super(
      writers,
      { ...options, lockClass: PLACES_LOCK_CLASS },
      { table: 'places', columns: PLACE_STAGED, copy: !builtIn, builtIn },
    );
  }

  static async open(client: Client, options: PlaceImportSessionOptions): Promise<PlaceImportSession> {
    const { writers, builtIn } = await BulkImportSession.openWriters([client], {
      ...options,
      lockClass: PLACES_LOCK_CLASS,
      busy: () =>
        new PlaceException(
          PlaceExceptionCode.SOURCE_BUSY,
          `another import of places source "${options.source}" is running; try again when it has finished`,
        ),
      sql: () => placeImportSql(`places_import_staging_${randomBytes(6).toString('hex')}`),
      setup: (sql) => [sql.createStaging],
    });
    return new PlaceImportSession(writers, options, builtIn);
  }

  // Stages and upserts (or classifies) one batch atomically: all of it or none of it.
  @GenerateSql(
    // BEGIN, COPY, upsert, COMMIT
    { name: 'one place', params: () => [[SAMPLE_PLACE]], answers: [[], [], [{ inserted: 1, updated: 0 }]] },
    { name: 'dry run: classify instead of upsert', sql: () => SAMPLE_SQL.classify },
    {
      name: 'built-in database: array parameters instead of COPY',
      params: () => [[SAMPLE_PLACE]],
      subjectAnswers: BUILT_IN_SESSION,
      answers: [[], [], [{ inserted: 1, updated: 0 }]],
    },
  )
  async writeBatch(places: PlaceRecord[]): Promise<UpsertCounts> {
    if (places.length === 0) return { inserted: 0, updated: 0, unchanged: 0 };
    const { inserted, updated } = await this.inBatch(places, async ({ client, sql }) => {
      const { rows } = await client.query<{ inserted: number; updated: number }>(
        this.options.dryRun ? sql.classify : sql.upsert,
        [this.options.source],
      );
      return rows[0];
    });
    return { inserted, updated, unchanged: places.length - inserted - updated };
  }

  // Deletes the source's places whose ids are not in `keep`; returns how many went.
  @GenerateSql({ params: () => [[SAMPLE_UUID, SAMPLE_UUID_2]] })
  async deleteOtherPlaces(keep: string[]): Promise<number> {
    if (this.options.dryRun) return 0;
    const { rowCount } = await this.writers[0].client.query(this.writers[0].sql.deleteOthers, [
      this.options.source,
      keep,
    ]);
    return rowCount ?? 0;
  }
}

// For the SQL review (src/queries/): statements of cases a sample session does not reach.
const SAMPLE_SQL = placeImportSql('places_import_staging_0123456789ab');
const SAMPLE_PLACE: PlaceRecord = {
  id: SAMPLE_UUID,
  kind: 'address',
  name: '35',
  housenumber: '35',
  street: 'Herrengasse',
  postcode: '9490',
  locality: 'Vaduz',
  municipality: 'Vaduz',
  district: null,
  hierarchy: null,
  region: 'Vaduz',
  regionCode: 'LI-11',
  countryCode: 'LI',
  label: 'Herrengasse 35, 9490 Vaduz',
  altNames: '',
  lon: 9.5209,
  lat: 47.1391,
  line: null,
  importance: 0.1,
  population: null,
  source: SAMPLE_SOURCE,
  sourceId: 'node/1',
};
