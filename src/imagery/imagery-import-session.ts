import { Client } from 'pg';
import { from as copyFrom, to as copyTo } from 'pg-copy-streams';
import { pipeline } from 'node:stream/promises';
import { BulkImportSession, UpsertCounts, Writer } from '../database/bulk-import/bulk-import-session';
import {
  BUILT_IN_SESSION,
  GenerateSql,
  NoSql,
  POSTGRES_SESSION,
  SAMPLE_SOURCE,
  SAMPLE_UUID,
  SqlSubject,
} from '../database/generate-sql';
import { imageryIsDistributed } from '../database/citus-layout';
import { ImageryFirstLoadSession } from './first-load/imagery-first-load-session';
import { ImageryRecord } from './imagery-feature';
import { ImageryException, ImageryExceptionCode } from './imagery.exception';
import { IMAGERY_STAGED, importSql, importTables } from './imagery-import.sql';
import { photosParameter } from './photo-details/photo-details';

export type { UpsertCounts } from '../database/bulk-import/bulk-import-session';

export interface BatchResult extends UpsertCounts {
  /** Ids of records without an address that no place could give one (not written; not counted above). */
  unrecoverable: string[];
}

export interface ImportSessionOptions {
  source: string | null;
  /** Classify records (insert/update/unchanged) without changing the catalogue. */
  dryRun: boolean;
  /** Remember every id written, for deleteMissing() at the end. */
  trackSeen: boolean;
  /** Connections writing batches in parallel (default 1). */
  connections?: number;
  /** false: keep the indexes even when the catalogue is empty (see ImageryFirstLoadSession; default true). */
  firstLoad?: boolean;
  /** false: stage batches with array parameters instead of COPY (chosen by itself on the built-in database). */
  copy?: boolean;
  /** Whether imagery is distributed (Citus); read from the database when not given. The medium tier sets
   * it on one server, with imagery's triggers dropped as on the cluster, to compare both forms. */
  distributed?: boolean;
}

type ImportSql = ReturnType<typeof importSql>;

// Namespaces the per-source advisory lock (apart from the places import's and the migrator's).
const IMPORT_LOCK_CLASS = 'lis-imagery-import';

// The imagery importer's connections (see BulkImportSession), up to `connections` at once: index
// maintenance makes the upsert CPU-bound in one backend; a second one uses the second core. Each batch
// is linked to places before it reaches the catalogue, and the ids written are remembered for
// deleteMissing.
@SqlSubject((db) => {
  db.answer(...POSTGRES_SESSION);
  return ImageryImportSession.open([db.client(), db.client()], {
    source: SAMPLE_SOURCE,
    dryRun: false,
    trackSeen: true,
  });
})
export class ImageryImportSession extends BulkImportSession<ImageryRecord, ImportSql> {
  private constructor(
    writers: Array<Writer<ImportSql>>,
    private readonly importOptions: ImportSessionOptions,
    copy: boolean,
    builtIn: boolean,
    private firstLoad: ImageryFirstLoadSession | null,
    // imagery is distributed (Citus): the batch is linked in the steps Citus plans (linkStagedCitusSql).
    private readonly distributed: boolean,
  ) {
    super(
      writers,
      { ...importOptions, lockClass: IMPORT_LOCK_CLASS },
      { table: 'imagery', columns: IMAGERY_STAGED, copy, builtIn },
    );
  }

  // `clients` are fresh connections; on the built-in database only the first is used.
  static async open(clients: Client[], options: ImportSessionOptions): Promise<ImageryImportSession> {
    const { writers, builtIn } = await BulkImportSession.openWriters(clients, {
      ...options,
      lockClass: IMPORT_LOCK_CLASS,
      busy: () =>
        new ImageryException(
          ImageryExceptionCode.SOURCE_BUSY,
          `another import of source "${options.source}" is running; try again when it has finished`,
        ),
      sql: () => importSql(importTables()),
      setup: (sql) => (options.trackSeen ? [sql.createStaging, sql.createSeen] : [sql.createStaging]),
    });
    const fail = async (error: unknown): Promise<never> => {
      await Promise.all(writers.map((w) => w.client.end().catch(() => undefined)));
      throw error;
    };
    // Where imagery is distributed (read once per session), two more temporary tables per connection.
    const distributed =
      !builtIn && (options.distributed ?? (await imageryIsDistributed(writers[0].client).catch(fail)));
    if (distributed) {
      for (const { client, sql } of writers) {
        await client.query(sql.citus.createStored).catch(fail);
        await client.query(sql.citus.createLinks).catch(fail);
      }
    }
    // An empty catalogue is loaded without its secondary indexes (see ImageryFirstLoadSession); not on the
    // built-in database, and never in a dry run.
    const firstLoad =
      builtIn || options.dryRun || options.firstLoad === false
        ? null
        : await ImageryFirstLoadSession.start(writers.map((w) => w.client)).catch(fail);
    const copy = !builtIn && options.copy !== false;
    return new ImageryImportSession(writers, options, copy, builtIn, firstLoad, distributed);
  }

  /** Whether this session is a first load (its indexes are built when it ends). */
  get isFirstLoad(): boolean {
    return this.firstLoad !== null;
  }

  // A first load's end (before analyze and close; also after an interrupted or failed run): builds the
  // indexes set aside. Nothing for any other session.
  @NoSql('ImageryFirstLoadSession.end (declared there)')
  async endFirstLoad(): Promise<void> {
    const load = this.firstLoad;
    this.firstLoad = null;
    await load?.end();
  }

  // Stages, links, upserts (or classifies) and remembers one batch atomically: all of it or none of it.
  // Records without an address are linked before they reach the catalogue, in the same transaction, so
  // no record is ever stored without one (those nothing can be recovered for are left out and returned).
  @GenerateSql(
    // BEGIN, COPY, settle, link, takeUnrecoverable, upsert, rememberSeen, COMMIT
    {
      name: 'one record',
      params: () => [[SAMPLE_RECORD]],
      answers: [[], [], [], [], [], [{ inserted: 1, updated: 0 }]],
    },
    { name: 'dry run: classify instead of upsert', sql: () => SAMPLE_SQL.classify },
    {
      name: 'imagery distributed: the stored rows read first (settle, 1 of 2)',
      sql: () => SAMPLE_SQL.citus.readStored,
    },
    { name: 'imagery distributed: settle from them (2 of 2)', sql: () => SAMPLE_SQL.citus.settleFromStored },
    { name: 'imagery distributed: the links written first (link, 1 of 2)', sql: () => SAMPLE_SQL.citus.linkInto },
    { name: 'imagery distributed: link from them (2 of 2)', sql: () => SAMPLE_SQL.citus.linkFromLinks },
    { name: 'imagery distributed: upsert compared with the stored rows', sql: () => SAMPLE_SQL.citus.upsert },
    { name: 'imagery distributed: dry run', sql: () => SAMPLE_SQL.citus.classify },
    { name: 'imagery distributed: the vocabulary (as lis_count_words)', sql: () => SAMPLE_SQL.citus.countWords },
    {
      name: 'imagery distributed: the ranked lists (as lis_unrank_readdressed)',
      sql: () => SAMPLE_SQL.citus.unrankReaddressed,
    },
    {
      name: 'imagery distributed: the coverage cells (as lis_note_coverage_touched)',
      sql: () => SAMPLE_SQL.citus.noteCoverage,
    },
    {
      name: 'built-in database: array parameters instead of COPY',
      params: () => [[SAMPLE_RECORD]],
      subjectAnswers: BUILT_IN_SESSION,
      answers: [[], [], [], [], [], [{ inserted: 1, updated: 0 }]],
    },
  )
  async writeBatch(records: ImageryRecord[]): Promise<BatchResult> {
    if (records.length === 0) return { inserted: 0, updated: 0, unchanged: 0, unrecoverable: [] };
    return this.inBatch(records, async ({ client, sql }) => {
      await this.link(client, sql, records);
      const { rows: lost } = await client.query<{ id: string }>(sql.takeUnrecoverable);
      const { upsert, classify } = this.distributed ? sql.citus : sql;
      const { rows } = await client.query<{ inserted: number; updated: number }>(
        this.options.dryRun ? classify : upsert,
        [this.options.source],
      );
      // Where imagery is distributed it has no triggers: the batch keeps the vocabulary, the ranked lists
      // and the coverage cells up to date itself (see imagery-import-distributed.sql.ts).
      if (this.distributed && !this.options.dryRun) {
        await client.query(sql.citus.countWords);
        await client.query(sql.citus.unrankReaddressed);
        await client.query(sql.citus.noteCoverage, [this.firstLoad !== null]);
      }
      if (!this.options.dryRun && records.some((r) => r.photo))
        await client.query(sql.upsertPhotos, [photosParameter(records)]);
      if (this.importOptions.trackSeen) await client.query(sql.rememberSeen);
      const { inserted, updated } = rows[0];
      const unrecoverable = lost.map((r) => r.id);
      return {
        inserted,
        updated,
        unchanged: records.length - inserted - updated - unrecoverable.length,
        unrecoverable,
      };
    });
  }

  // Settles and links the staged batch (see linkStagedSql): on one server two updates of the staging table,
  // where imagery is distributed each read into a temporary table first (see linkStagedCitusSql).
  @NoSql('part of writeBatch (declared there)')
  private async link(client: Client, sql: ImportSql, records: ImageryRecord[]): Promise<void> {
    if (!this.distributed) {
      await client.query(sql.settle);
      await client.query(sql.link);
      return;
    }
    await client.query(sql.citus.readStored, [records.map((r) => r.id)]);
    await client.query(sql.citus.settleFromStored);
    await client.query(sql.citus.linkInto);
    await client.query(sql.citus.linkFromLinks);
  }

  // Deletes (or, in a dry run, counts) the source's records that no batch of this session contained.
  @GenerateSql(
    {
      name: 'two connections: the ids the second one saw are gathered on the first',
      params: () => [],
      answers: [[], [], [], [], [{ n: 0 }]],
    },
    { name: 'dry run: count instead of delete', sql: () => SAMPLE_SQL.countMissing },
    ...(['gatherMissing', 'keepUnseen', 'countMissing', 'readMissing', 'uncountMissing', 'unrankMissing'] as const).map(
      (step) => ({ name: `imagery distributed: ${step}`, sql: () => SAMPLE_SQL.citus[step] }),
    ),
    { name: 'imagery distributed: noteMissingCoverage', sql: () => SAMPLE_SQL.citus.noteMissingCoverage },
    { name: 'imagery distributed: deleteListed', sql: () => SAMPLE_SQL.citus.deleteListed },
    { name: 'imagery distributed: deleteListedPhotos', sql: () => SAMPLE_SQL.citus.deleteListedPhotos },
  )
  async deleteMissing(): Promise<number> {
    if (!this.importOptions.trackSeen || this.options.source === null)
      throw new Error('deleteMissing needs a source and trackSeen');
    const [primary, ...others] = this.writers;
    // Each connection remembered the ids it wrote; gather them on the first, streamed (never in memory).
    for (const other of others) {
      await pipeline(
        other.client.query(copyTo(other.sql.copySeenOut)),
        primary.client.query(copyFrom(primary.sql.copySeenIn)),
      );
    }
    await primary.client.query(primary.sql.indexSeen);
    await primary.client.query(primary.sql.analyzeSeen);
    if (this.distributed) return this.deleteMissingDistributed(primary);
    if (this.options.dryRun) {
      const { rows } = await primary.client.query<{ n: number }>(primary.sql.countMissing, [this.options.source]);
      return rows[0].n;
    }
    const { rows } = await primary.client.query<{ n: number }>(primary.sql.deleteMissing, [this.options.source]);
    return rows[0].n;
  }

  // deleteMissing where imagery is distributed, in one transaction (see imagery-import-distributed.sql.ts):
  // the source's ids not seen listed on the coordinator, then the delete triggers' upkeep for them and
  // the delete by the list.
  @NoSql('part of deleteMissing (the statements are in imagery-import.session.sql, imagery distributed)')
  private async deleteMissingDistributed({ client, sql }: Writer<ImportSql>): Promise<number> {
    const source = [this.options.source];
    await client.query('BEGIN');
    try {
      await client.query(sql.citus.createMissing);
      await client.query(sql.citus.gatherMissing, source);
      await client.query(sql.citus.keepUnseen);
      const { rows } = await client.query<{ n: number }>(sql.citus.countMissing);
      if (!this.options.dryRun && rows[0].n > 0) {
        await client.query(sql.citus.readMissing);
        await client.query(sql.citus.uncountMissing);
        await client.query(sql.citus.unrankMissing);
        await client.query(sql.citus.noteMissingCoverage, [this.firstLoad !== null]);
        await client.query(sql.citus.deleteListed);
        await client.query(sql.citus.deleteListedPhotos);
      }
      await client.query(this.options.dryRun ? 'ROLLBACK' : 'COMMIT');
      return rows[0].n;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    }
  }
}

// For the SQL review (src/queries/): statements of cases a sample session does not reach.
const SAMPLE_SQL = importSql({
  staging: 'imagery_import_staging_0123456789ab',
  seen: 'imagery_import_seen_0123456789ab',
  stored: 'imagery_import_stored_0123456789ab',
  links: 'imagery_import_links_0123456789ab',
  missing: 'imagery_import_missing_0123456789ab',
});
const SAMPLE_RECORD: ImageryRecord = {
  id: SAMPLE_UUID,
  address: 'Herrengasse 35, 9490 Vaduz',
  addressOrigin: 'own',
  source: null,
  capturedAt: '2024-05-01',
  heading: 90,
  interactive: true,
  imageUrl: 'https://images.example/1.jpg',
  lon: 9.5209,
  lat: 47.1391,
};
