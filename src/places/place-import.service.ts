import { Injectable } from '@nestjs/common';
import { BatchWriter } from '../database/bulk-import/batch-writer';
import {
  BulkImportOptions,
  BulkImportSummary,
  emptySummary,
  ImportTally,
  readInBatches,
} from '../database/bulk-import/interruptible-read-loop';
import type { ImportRejection } from '../import-formats/rejection';
import { PlaceRepository } from './place.repository';
import type { PlaceItem } from './place-item';
import { PlaceRecord } from './place-record';
import { validatePlace } from './place-validation';

export const DEFAULT_PLACE_BATCH_SIZE = 5000;
export const MAX_PLACE_BATCH_SIZE = 50_000;

export interface PlaceImportRejection extends Omit<ImportRejection, 'position'> {
  position: number | string;
}

/** `read`: places and rejections (OSM objects that are no place are `skipped`, not read). */
export interface PlaceImportSummary extends BulkImportSummary<PlaceImportRejection> {
  skipped: number;
}

export interface PlaceImportOptions extends BulkImportOptions<PlaceImportRejection, PlaceImportSummary> {
  /** Where the places come from ('osm', 'openaddresses', a name of one's own); part of every place id. */
  source: string;
  /** ISO 3166-1 alpha-2 for places whose record names no country (--country). */
  countryCode?: string | null;
}

// Streams places into the places table in atomic batches, keyed by (source, source id). The next batch
// is read while the previous one is written (one in flight), so memory stays at two batches.
@Injectable()
export class PlaceImportService {
  constructor(private readonly repository: PlaceRepository) {}

  async importPlaces(items: AsyncIterable<PlaceItem>, options: PlaceImportOptions): Promise<PlaceImportSummary> {
    const batchSize = Math.min(
      Math.max(1, Math.trunc(options.batchSize ?? DEFAULT_PLACE_BATCH_SIZE)),
      MAX_PLACE_BATCH_SIZE,
    );
    const defaults = { source: options.source, countryCode: options.countryCode };
    const tally = new ImportTally<PlaceImportRejection, PlaceImportSummary>(
      { ...emptySummary(options.dryRun === true), skipped: 0 },
      options,
    );
    const { summary } = tally;
    const session = await this.repository.openImportSession({ source: options.source, dryRun: summary.dryRun });
    try {
      const writer = new BatchWriter(
        session,
        (p: PlaceRecord) => p,
        (counts) => tally.written(counts),
      );
      await readInBatches(items, writer, {
        batchSize,
        signal: options.signal,
        summary,
        entry: async (item: PlaceItem) => {
          if (item.skipped) {
            summary.skipped++;
            return undefined;
          }
          summary.read++;
          const result = item.rejection
            ? { ok: false as const, rejection: item.rejection }
            : validatePlace(item.place ?? {}, defaults);
          if (!result.ok) {
            const field = item.fieldNames?.[result.rejection.field] ?? result.rejection.field;
            await tally.reject({ position: item.position, field, reason: result.rejection.reason });
            return undefined;
          }
          return [result.place.id, result.place];
        },
      });
      if (summary.inserted + summary.updated > 0) await session.analyze();
    } finally {
      await session.close();
    }
    return tally.done();
  }
}
