import { Injectable } from '@nestjs/common';
import { FeatureItem } from './feature-reader';
import { FeatureResult, ImageryRecord, parseFeature, validateRecord } from './imagery-feature';
import { ImageryImportSession, ImageryRepository, UpsertCounts } from './imagery.repository';

export const DEFAULT_BATCH_SIZE = 5000;
export const MAX_BATCH_SIZE = 50_000;
// Two writers keep both cores of a small server busy (PostgreSQL's index maintenance is the bottleneck).
export const DEFAULT_CONNECTIONS = 2;
export const MAX_CONNECTIONS = 8;

export interface ImportRejection {
  position: number;
  field: string;
  reason: string;
}

export type ImportOutcome = 'complete' | 'interrupted' | 'input-error';

export interface ImportSummary {
  read: number;
  inserted: number;
  updated: number;
  unchanged: number;
  deleted: number;
  rejected: number;
  /** The first rejections (all are counted; see ImportOptions.maxReportedRejections). */
  rejections: ImportRejection[];
  dryRun: boolean;
  /** complete: the input was read to its end; interrupted: stopped by the signal; input-error: unreadable. */
  outcome: ImportOutcome;
  inputError?: string;
  /** Why --delete-missing deleted nothing, when it was asked for and did not run. */
  deletionSkipped?: string;
  elapsedMs: number;
}

export interface ImportOptions {
  source?: string | null;
  batchSize?: number;
  /** Database connections writing batches in parallel. */
  connections?: number;
  /** Classify and count without changing the catalogue. */
  dryRun?: boolean;
  /** Remove the source's records that the input no longer contains (needs a source; see deletionBlocker). */
  deleteMissing?: boolean;
  /** Rejections tolerated before --delete-missing refuses to run. */
  maxRejects?: number;
  /** Keep at most this many rejections in the summary (all are counted). */
  maxReportedRejections?: number;
  onRejection?: (rejection: ImportRejection) => void | Promise<void>;
  /** Called after every committed batch. */
  onProgress?: (summary: Readonly<ImportSummary>) => void;
  /** Aborting stops reading; batches already read are written, then the import returns. */
  signal?: AbortSignal;
}

// Streams records into the catalogue in atomic batches. Reading the next batch overlaps writing the
// previous ones (at most one per connection in flight), so parsing and PostgreSQL work in parallel with
// bounded memory.
@Injectable()
export class ImageryImportService {
  constructor(private readonly repository: ImageryRepository) {}

  async importFeatures(items: AsyncIterable<FeatureItem>, options: ImportOptions = {}): Promise<ImportSummary> {
    const started = Date.now();
    const source = options.source ?? null;
    const batchSize = Math.min(Math.max(1, Math.trunc(options.batchSize ?? DEFAULT_BATCH_SIZE)), MAX_BATCH_SIZE);
    const keep = options.maxReportedRejections ?? 1000;
    if (options.deleteMissing && source === null) throw new Error('deleteMissing needs a source');
    const summary: ImportSummary = {
      read: 0, inserted: 0, updated: 0, unchanged: 0, deleted: 0, rejected: 0, rejections: [],
      dryRun: options.dryRun === true, outcome: 'complete', elapsedMs: 0,
    };

    const session = await this.repository.openImportSession({
      source,
      dryRun: summary.dryRun,
      trackSeen: options.deleteMissing === true,
      connections: Math.min(Math.max(1, Math.trunc(options.connections ?? DEFAULT_CONNECTIONS)), MAX_CONNECTIONS),
    });
    try {
      const writer = new BatchWriter(session, (counts) => {
        summary.inserted += counts.inserted;
        summary.updated += counts.updated;
        summary.unchanged += counts.unchanged;
        summary.elapsedMs = Date.now() - started;
        options.onProgress?.(summary);
      });
      // Keyed by id: a record repeated within one batch would make the upsert touch a row twice.
      let batch = new Map<string, ImageryRecord>();
      const iterator = items[Symbol.asyncIterator]();
      const reads = new AbortableReads(iterator, options.signal);
      let exhausted = false;
      let waiting = false; // a read is still pending (interrupted while the input was idle)
      try {
        for (;;) {
          if (options.signal?.aborted) {
            summary.outcome = 'interrupted';
            break;
          }
          let next: IteratorResult<FeatureItem> | undefined;
          try {
            next = await reads.next();
          } catch (error) {
            summary.outcome = 'input-error';
            summary.inputError = (error as Error).message;
            break;
          }
          if (next === undefined) {
            summary.outcome = 'interrupted';
            waiting = true;
            break;
          }
          if (next.done) {
            exhausted = true;
            break;
          }
          const item = next.value;
          summary.read++;
          const result = toRecord(item);
          if (!result.ok) {
            const rejection = { position: item.position, ...result.rejection };
            summary.rejected++;
            if (summary.rejections.length < keep) summary.rejections.push(rejection);
            await options.onRejection?.(rejection);
            continue;
          }
          if (batch.has(result.record.id)) summary.unchanged++; // superseded by the later copy in this batch
          batch.set(result.record.id, result.record);
          if (batch.size >= batchSize) {
            await writer.write([...batch.values()]);
            batch = new Map();
          }
        }
      } finally {
        // Stopping early (interrupted, or a database error) closes the input. With a read still pending
        // the close would wait for it, so it is only requested; the caller owns the stream and ends it.
        if (!exhausted && summary.outcome !== 'input-error') {
          const closing = iterator.return?.().catch(() => undefined);
          if (!waiting) await closing;
        }
      }
      // Records already read are written even when interrupted: every batch is whole or absent.
      if (batch.size > 0) await writer.write([...batch.values()]);
      await writer.drain();

      if (options.deleteMissing) {
        const blocker = deletionBlocker(summary, options.maxRejects ?? 0);
        if (blocker) summary.deletionSkipped = blocker;
        else summary.deleted = await session.deleteMissing();
      }
      if (summary.inserted + summary.updated + summary.deleted > 0) await session.analyze();
    } finally {
      await session.close();
    }
    summary.elapsedMs = Date.now() - started;
    return summary;
  }
}

// Reads the next item, or gives undefined as soon as the signal aborts (an idle standard input must
// not hold up Ctrl-C). One abort listener for the whole import wakes whichever read is pending; racing
// a long-pending promise instead would leave a reaction behind on it for every record.
class AbortableReads {
  private wake?: () => void;

  constructor(
    private readonly iterator: AsyncIterator<FeatureItem>,
    private readonly signal?: AbortSignal,
  ) {
    signal?.addEventListener('abort', () => this.wake?.(), { once: true });
  }

  next(): Promise<IteratorResult<FeatureItem> | undefined> {
    if (!this.signal) return this.iterator.next();
    if (this.signal.aborted) return Promise.resolve(undefined);
    return new Promise((resolve, reject) => {
      this.wake = () => resolve(undefined);
      this.iterator.next().then(
        (result) => {
          this.wake = undefined;
          resolve(result);
        },
        (error) => {
          this.wake = undefined;
          reject(error);
        },
      );
    });
  }
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
  if (summary.rejected > maxRejects) return `${summary.rejected} records were rejected (more than --max-rejects ${maxRejects})`;
  if (summary.read - summary.rejected === 0) return 'the input held no valid records';
  return undefined;
}

// Writes up to `session.connections` batches at once while the caller reads the next one. A batch that
// shares an id with one in flight waits for it, so the later copy of a record always wins.
class BatchWriter {
  private inflight: Array<{ ids: Set<string>; done: Promise<void> }> = [];
  private failure: unknown;

  constructor(
    private readonly session: ImageryImportSession,
    private readonly onWritten: (counts: UpsertCounts) => void,
  ) {}

  async write(records: ImageryRecord[]): Promise<void> {
    const ids = new Set(records.map((r) => r.id));
    for (const batch of [...this.inflight]) {
      if (records.some((r) => batch.ids.has(r.id))) await batch.done;
    }
    while (this.inflight.length >= this.session.connections) await Promise.race(this.inflight.map((b) => b.done));
    this.throwIfFailed();
    const entry = { ids, done: Promise.resolve() };
    entry.done = this.session.writeBatch(records).then(
      (counts) => {
        this.onWritten(counts);
        this.inflight = this.inflight.filter((b) => b !== entry);
      },
      (error) => {
        this.failure ??= error;
        this.inflight = this.inflight.filter((b) => b !== entry);
      },
    );
    this.inflight.push(entry);
  }

  // Waits for every batch in flight; the first failure, if any, is thrown.
  async drain(): Promise<void> {
    await Promise.all(this.inflight.map((b) => b.done));
    this.throwIfFailed();
  }

  private throwIfFailed(): void {
    if (this.failure) throw this.failure;
  }
}
