import { ReadOutcome, ReadResult, readUntilStopped } from '../../common/read-until-stopped';
import type { UpsertCounts } from './bulk-import-session';
import { BatchWriter } from './batch-writer';

// What both importers (imagery, places) count and take, and their read-batch-write loop.

export interface BulkImportSummary<J> {
  read: number;
  inserted: number;
  updated: number;
  unchanged: number;
  rejected: number;
  /** The first rejections (all are counted; see BulkImportOptions.maxReportedRejections). */
  rejections: J[];
  dryRun: boolean;
  /** complete: the input was read to its end; interrupted: stopped by the signal; input-error: unreadable. */
  outcome: ReadOutcome;
  inputError?: string;
  elapsedMs: number;
}

export interface BulkImportOptions<J, S> {
  batchSize?: number;
  /** Classify and count without changing the table. */
  dryRun?: boolean;
  /** Keep at most this many rejections in the summary (all are counted). */
  maxReportedRejections?: number;
  onRejection?: (rejection: J) => void | Promise<void>;
  /** Called after every committed batch. */
  onProgress?: (summary: Readonly<S>) => void;
  /** Aborting stops reading; rows already read are written, then the import returns. */
  signal?: AbortSignal;
}

// One import's counting: the summary, rejections and progress.
export class ImportTally<J, S extends BulkImportSummary<J>> {
  readonly started = Date.now();

  constructor(
    readonly summary: S,
    private readonly options: BulkImportOptions<J, S>,
  ) {}

  readonly reject = async (rejection: J): Promise<void> => {
    this.summary.rejected++;
    if (this.summary.rejections.length < (this.options.maxReportedRejections ?? 1000))
      this.summary.rejections.push(rejection);
    await this.options.onRejection?.(rejection);
  };

  /** A committed batch's counts; `then` runs before progress is reported. */
  async written(counts: UpsertCounts, then?: () => Promise<void>): Promise<void> {
    this.summary.inserted += counts.inserted;
    this.summary.updated += counts.updated;
    this.summary.unchanged += counts.unchanged;
    await then?.();
    this.summary.elapsedMs = Date.now() - this.started;
    this.options.onProgress?.(this.summary);
  }

  done(): S {
    this.summary.elapsedMs = Date.now() - this.started;
    return this.summary;
  }
}

/** A summary's starting counts. */
export function emptySummary<J>(dryRun: boolean): BulkImportSummary<J> {
  return {
    read: 0,
    inserted: 0,
    updated: 0,
    unchanged: 0,
    rejected: 0,
    rejections: [],
    dryRun,
    outcome: 'complete',
    elapsedMs: 0,
  };
}

// Reads `items` until the input ends or the signal aborts, batching the rows `entry` makes of them
// (none: skipped or rejected) by id: a row repeated within one batch would make the upsert touch it
// twice, so the later copy replaces the earlier (counted unchanged). Rows already read are written even
// when interrupted: every batch is whole or absent.
export async function readInBatches<I, T, R, C>(
  items: AsyncIterable<I>,
  writer: BatchWriter<T, R, C>,
  o: {
    batchSize: number;
    signal?: AbortSignal;
    summary: BulkImportSummary<unknown>;
    entry: (item: I) => Promise<[id: string, row: T] | undefined>;
  },
): Promise<void> {
  let batch = new Map<string, T>();
  try {
    const read: ReadResult = await readUntilStopped(
      items,
      async (item) => {
        const entry = await o.entry(item);
        if (!entry) return;
        if (batch.has(entry[0])) o.summary.unchanged++; // superseded by the later copy in this batch
        batch.set(entry[0], entry[1]);
        if (batch.size >= o.batchSize) {
          await writer.write(batch);
          batch = new Map();
        }
      },
      o.signal,
    );
    o.summary.outcome = read.outcome;
    if (read.inputError !== undefined) o.summary.inputError = read.inputError;
    if (batch.size > 0) await writer.write(batch);
    await writer.drain();
  } catch (error) {
    // Whatever failed (a batch, a rejection), the batches still in flight end before the caller goes on.
    await writer.settle();
    throw error;
  }
}
