import { Injectable } from '@nestjs/common';
import type { FeatureItem, RawRecord } from '../../imagery/imagery-feature';
import { ImageryImportService, ImportSummary } from '../../imagery/imagery-import.service';
import type { GpxTrack } from '../metadata/gpx-track';
import { PHOTO_CONCURRENCY } from '../photo-limits';
import { PHOTO_REJECTIONS, PhotoRejection, PhotoRejectionField } from '../photo-rejection';
import type { ImageStore } from '../store/image-store';
import { storePhoto } from '../store/photo-storing';
import { walkPhotoFiles } from './photo-folder.walker';
import { photoRecord } from './photo-record';
import { scanPhoto, ScannedPhoto } from './photo-scan';
import { DEFAULT_SEQUENCE_RULES, makeSequences, Sequence, SequenceRules } from './photo-sequences';

// The photo import: every file under the folders given read and placed (photo-scan.ts), the photos cut
// into sequences with their duplicates left out (photo-sequences.ts), then each kept photo stored (the
// original and its derivatives, photo-storing.ts) and made a record (photo-record.ts) that the imagery
// importer writes in atomic batches with its photo details, its address recovered as any record's.
// Every file gets an outcome: a record, or a refusal with its reason.

/** Photos per atomic batch: a run killed at any point redoes at most this many. */
export const PHOTO_BATCH_SIZE = 50;

export interface PhotoRefusal {
  file: string;
  field: PhotoRejectionField | 'address';
  reason: string;
}

export interface PhotoImportOptions {
  roots: readonly string[];
  store: ImageStore;
  track?: GpxTrack;
  timeOffsetS?: number;
  rules?: SequenceRules;
  source?: string | null;
  dryRun?: boolean;
  signal?: AbortSignal;
  onRefused?: (refusal: PhotoRefusal) => Promise<void> | void;
  onProgress?: (p: { files: number; stored: number; toStore: number; summary?: Readonly<ImportSummary> }) => void;
}

export interface SequenceSummary {
  id: string;
  camera: { make: string | null; model: string | null };
  photos: number;
  from: string;
  to: string;
}

export interface PhotoImportSummary {
  files: number;
  refused: number;
  sequences: SequenceSummary[];
  /** The records' import (absent in a dry run, which writes nothing). */
  records?: ImportSummary;
}

@Injectable()
export class PhotoImportService {
  constructor(private readonly imagery: ImageryImportService) {}

  async importPhotos(o: PhotoImportOptions): Promise<PhotoImportSummary> {
    const summary: PhotoImportSummary = { files: 0, refused: 0, sequences: [] };
    const refuse = async (refusal: PhotoRefusal) => {
      summary.refused++;
      await o.onRefused?.(refusal);
    };
    const scanned = await this.scan(o, summary, refuse);

    const { sequences, duplicates } = makeSequences(scanned, o.rules ?? DEFAULT_SEQUENCE_RULES);
    for (const { photo, of } of duplicates) {
      await refuse({
        file: photo.file.name,
        field: PHOTO_REJECTIONS.duplicate,
        reason: `duplicate of ${of.file.name}: within ${(o.rules ?? DEFAULT_SEQUENCE_RULES).duplicateDistanceM} m and ${(o.rules ?? DEFAULT_SEQUENCE_RULES).duplicateAngleDeg} degrees of it`,
      });
    }
    summary.sequences = sequences.map(describe);
    if (o.dryRun || o.signal?.aborted) return summary;

    const kept = sequences.flatMap((s) => s.photos.map((p) => ({ ...p, sequenceId: s.id })));
    let stored = 0;
    const progress = (records?: Readonly<ImportSummary>) =>
      o.onProgress?.({ files: summary.files, stored, toStore: kept.length, summary: records });
    const store = o.store;
    async function* records(): AsyncGenerator<FeatureItem> {
      // PHOTO_CONCURRENCY photos stored at once, their records handed on in order.
      const pending: Array<Promise<RawRecord | PhotoRejection>> = [];
      const start = (i: number) => {
        const k = kept[i];
        pending.push(
          storePhoto(store, k.photo).then(
            () => photoRecord(k.photo, { sequenceId: k.sequenceId, index: k.index, heading: k.heading }),
            (error: unknown) => {
              if (error instanceof PhotoRejection) return error;
              throw error;
            },
          ),
        );
      };
      for (let i = 0; i < Math.min(PHOTO_CONCURRENCY, kept.length); i++) start(i);
      for (let i = 0; i < kept.length; i++) {
        const done = await pending.shift()!;
        if (i + PHOTO_CONCURRENCY < kept.length) start(i + PHOTO_CONCURRENCY);
        stored++;
        if (done instanceof PhotoRejection) {
          await refuse({ file: kept[i].photo.file.name, field: done.field, reason: done.reason });
          continue;
        }
        yield { position: i, record: done };
      }
    }

    summary.records = await this.imagery.importFeatures(records(), {
      source: o.source ?? null,
      batchSize: PHOTO_BATCH_SIZE,
      firstLoad: false,
      signal: o.signal,
      maxReportedRejections: 0,
      onRejection: (r) => refuse({ file: kept[r.position].photo.file.name, field: 'address', reason: r.reason }),
      onProgress: (s) => progress(s),
    });
    return summary;
  }

  // Every file read and placed, PHOTO_CONCURRENCY at a time; a file whose content was already read is a
  // duplicate of the first one.
  private async scan(
    o: PhotoImportOptions,
    summary: PhotoImportSummary,
    refuse: (r: PhotoRefusal) => Promise<void>,
  ): Promise<ScannedPhoto[]> {
    const byHash = new Map<string, ScannedPhoto>();
    const inFlight = new Set<Promise<void>>();
    const options = { track: o.track, timeOffsetS: o.timeOffsetS ?? 0 };
    for await (const entry of walkPhotoFiles(o.roots)) {
      if (o.signal?.aborted) break;
      summary.files++;
      if ('refused' in entry) {
        await refuse({ file: entry.refused.name, field: entry.refused.field, reason: entry.refused.reason });
        continue;
      }
      const work = scanPhoto(entry.file, options).then(
        async (photo) => {
          const first = byHash.get(photo.hash);
          if (first) {
            await refuse({
              file: photo.file.name,
              field: 'duplicate',
              reason: `duplicate of ${first.file.name}: the same content`,
            });
          } else byHash.set(photo.hash, photo);
        },
        async (error: unknown) => {
          if (!(error instanceof PhotoRejection)) throw error;
          await refuse({ file: entry.file.name, field: error.field, reason: error.reason });
        },
      );
      const tracked = work.finally(() => inFlight.delete(tracked));
      inFlight.add(tracked);
      if (inFlight.size >= PHOTO_CONCURRENCY) await Promise.race(inFlight);
      o.onProgress?.({ files: summary.files, stored: 0, toStore: 0 });
    }
    await Promise.all(inFlight);
    return [...byHash.values()];
  }
}

function describe(s: Sequence<ScannedPhoto>): SequenceSummary {
  const first = s.photos[0].photo;
  const last = s.photos[s.photos.length - 1].photo;
  return {
    id: s.id,
    camera: { make: first.metadata.make ?? null, model: first.metadata.model ?? null },
    photos: s.photos.length,
    from: first.time.iso,
    to: last.time.iso,
  };
}
