import { Injectable } from '@nestjs/common';
import { ReadOutcome } from '../common/read-until-stopped';
import { BatchWriter } from '../database/bulk-import/batch-writer';
import {
  BulkImportOptions,
  BulkImportSummary,
  emptySummary,
  ImportTally,
  readInBatches,
} from '../database/bulk-import/interruptible-read-loop';
import { FeatureItem, FeatureResult, ImageryRecord, parseFeature, validateRecord } from './imagery-feature';
import { ImageryRepository } from './imagery.repository';
import type { ImageryImportSession } from './imagery-import-session';
import type { ImportRejection } from '../import-formats/rejection';
import { RankedWordListsRepository } from '../search-index/ranked-word-lists.repository';
import { CoverageRefresh, MapDataRepository } from '../map-data/map-data.repository';

export const DEFAULT_BATCH_SIZE = 5000;
export const MAX_BATCH_SIZE = 50_000;
// Two writers keep both cores of a small server busy (PostgreSQL's index maintenance is the bottleneck).
export const DEFAULT_CONNECTIONS = 2;
export const MAX_CONNECTIONS = 8;

// Why a record without an address is rejected when nothing is known to recover one from.
export const NO_PLACE_TO_RECOVER_ADDRESS =
  'is missing, and no place is known to recover it from (no address or street within 50 m, no locality at all): import places first (npm run import:places)';

export type ImportOutcome = ReadOutcome;

export interface ImportSummary extends BulkImportSummary<ImportRejection> {
  deleted: number;
  /** Why --delete-missing deleted nothing, when it was asked for and did not run. */
  deletionSkipped?: string;
  /** Why the ranked word lists were not brought up to date at the end (searches stay correct). */
  listsNotRefreshed?: string;
  /** Seconds spent building the indexes of a first load (an import into an empty catalogue; see ImageryFirstLoadSession). */
  firstLoadIndexSeconds?: number;
  /** The map's coverage cells brought up to date at the end (see MapDataRepository.refreshCoverage). */
  coverage?: CoverageRefresh & { seconds: number };
}

export interface ImportOptions extends BulkImportOptions<ImportRejection, ImportSummary> {
  source?: string | null;
  /** Database connections writing batches in parallel. */
  connections?: number;
  /** Remove the source's records that the input no longer contains (needs a source; see deletionBlocker). */
  deleteMissing?: boolean;
  /** An import into an empty catalogue builds its indexes at the end (default true; see ImageryFirstLoadSession). */
  firstLoad?: boolean;
  /** Rejections tolerated before --delete-missing refuses to run. */
  maxRejects?: number;
}

// Streams records into the catalogue in atomic batches. Reading the next batch overlaps writing the
// previous ones (at most one per connection in flight), so parsing and PostgreSQL work in parallel with
// bounded memory.
@Injectable()
export class ImageryImportService {
  constructor(
    private readonly repository: ImageryRepository,
    private readonly rankedLists: RankedWordListsRepository,
    private readonly mapData: MapDataRepository,
  ) {}

  async importFeatures(items: AsyncIterable<FeatureItem>, options: ImportOptions = {}): Promise<ImportSummary> {
    const source = options.source ?? null;
    const batchSize = Math.min(Math.max(1, Math.trunc(options.batchSize ?? DEFAULT_BATCH_SIZE)), MAX_BATCH_SIZE);
    if (options.deleteMissing && source === null) throw new Error('deleteMissing needs a source');
    const tally = new ImportTally<ImportRejection, ImportSummary>(
      { ...emptySummary(options.dryRun === true), deleted: 0 },
      options,
    );
    const { summary } = tally;

    const connections = Math.min(Math.max(1, Math.trunc(options.connections ?? DEFAULT_CONNECTIONS)), MAX_CONNECTIONS);
    const session = await this.repository.openImportSession({
      source,
      dryRun: summary.dryRun,
      trackSeen: options.deleteMissing === true,
      connections,
      firstLoad: options.firstLoad !== false,
    });
    // A first load's coverage rebuild, started once every batch is in (see startCoverage).
    let coverage: Promise<Settled<CoverageSummary>> | undefined;
    try {
      await writeRecords(items, session, tally, { batchSize, signal: options.signal });
      if (options.deleteMissing) {
        const blocker = deletionBlocker(summary, options.maxRejects ?? 0);
        if (blocker) summary.deletionSkipped = blocker;
        else summary.deleted = await session.deleteMissing();
      }
      if (session.isFirstLoad) {
        coverage = this.startCoverage(summary);
        const started = Date.now();
        await session.endFirstLoad();
        summary.firstLoadIndexSeconds = (Date.now() - started) / 1000;
      }
      if (summary.inserted + summary.updated + summary.deleted > 0) await session.analyze();
    } catch (error) {
      // A failed run ends once its coverage rebuild has (committed or rolled back on its own connection).
      await coverage;
      throw error;
    } finally {
      // A first load cut short by an error still gets its indexes back before the connections end.
      try {
        await session.endFirstLoad();
      } finally {
        await session.close();
      }
    }
    // After the session's lock is gone; even for an interrupted run, whose batches are committed.
    if (changed(summary)) {
      summary.listsNotRefreshed = await this.rankedLists.refreshOrWhyNot(connections);
      // The map's coverage layer (and every tile's ETag, docs/map-tiles.md).
      summary.coverage = unwrap(await (coverage ?? this.startCoverage(summary)!));
    }
    return tally.done();
  }

  // Refreshes the map's coverage cells on a connection of its own; undefined when nothing was written.
  // A first load starts it before its indexes are built: its full rebuild reads every record once, with
  // no index, and writes only the coverage tables, so it uses the core the index builds, the catalogue's
  // statistics and the ranked lists leave idle instead of waiting for them all (a first load is never on
  // the built-in database, whose connections share one session). Any other import starts it after the
  // lists, as before: the incremental refresh plans with the statistics just taken. Never rejects: its
  // failure is thrown when the import awaits it (unwrap).
  private startCoverage(summary: ImportSummary): Promise<Settled<CoverageSummary>> | undefined {
    if (!changed(summary)) return undefined;
    const started = Date.now();
    return this.mapData.refreshCoverage().then(
      (refresh) => ({ ok: true, value: { ...refresh, seconds: (Date.now() - started) / 1000 } }),
      (error: unknown) => ({ ok: false, error }),
    );
  }
}

type CoverageSummary = NonNullable<ImportSummary['coverage']>;
type Settled<T> = { ok: true; value: T } | { ok: false; error: unknown };

function unwrap<T>(settled: Settled<T>): T {
  if (!settled.ok) throw settled.error;
  return settled.value;
}

// Whether the run wrote anything: the ranked lists and the coverage cells are then refreshed.
function changed(summary: ImportSummary): boolean {
  return !summary.dryRun && summary.inserted + summary.updated + summary.deleted > 0;
}

// Reads the input and writes its records in batches on the session's connections: a record the
// reader or validation refuses, or whose address the database could not recover, is a rejection.
async function writeRecords(
  items: AsyncIterable<FeatureItem>,
  session: ImageryImportSession,
  tally: ImportTally<ImportRejection, ImportSummary>,
  options: { batchSize: number; signal?: AbortSignal },
): Promise<void> {
  const { summary } = tally;
  const writer = new BatchWriter(
    session,
    (p: Positioned) => p.record,
    (counts, written) =>
      tally.written(counts, async () => {
        // Records the database could not give an address are rejected after their batch.
        for (const id of counts.unrecoverable)
          await tally.reject({
            position: written.get(id)!.position,
            field: 'address',
            reason: NO_PLACE_TO_RECOVER_ADDRESS,
          });
      }),
  );
  await readInBatches(items, writer, {
    batchSize: options.batchSize,
    signal: options.signal,
    summary,
    entry: async (item: FeatureItem) => {
      summary.read++;
      const result = toRecord(item);
      if (!result.ok) {
        await tally.reject({ position: item.position, ...result.rejection });
        return undefined;
      }
      return [result.record.id, { record: result.record, position: item.position }];
    },
  });
}

function toRecord(item: FeatureItem): FeatureResult {
  if (item.rejection) return { ok: false, rejection: item.rejection };
  return item.record ? validateRecord(item.record) : parseFeature(item.feature);
}

// --delete-missing deletes only after a run that saw the whole input and found it sound: never because
// a run was cut short, the input broke off, or too much of it was rejected to trust what is "missing".
function deletionBlocker(summary: ImportSummary, maxRejects: number): string | undefined {
  if (summary.outcome === 'interrupted') return 'the import was interrupted';
  if (summary.outcome === 'input-error') return 'the input could not be read to its end';
  if (summary.rejected > maxRejects)
    return `${summary.rejected} records were rejected (more than --max-rejects ${maxRejects})`;
  if (summary.read - summary.rejected === 0) return 'the input held no valid records';
  return undefined;
}

interface Positioned {
  record: ImageryRecord;
  /** Where the record is in the input, for a rejection after its batch. */
  position: number;
}
