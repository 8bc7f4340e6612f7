import { Injectable } from '@nestjs/common';
import { UpsertCounts } from '../../database/bulk-import/bulk-import-session';
import { PlaceRepository } from '../place.repository';
import { GAZETTEER_SOURCE } from './gazetteer-place';
import { WorldGazetteerOptions, buildWorldGazetteer } from './world-gazetteer';

// Places per batch (one transaction): small enough that one batch is a short transaction on the
// built-in database (docs/benchmarks.md#fig-gazetteer-batch).
export const GAZETTEER_BATCH_SIZE = 2_000;

export interface GazetteerSeedSummary extends UpsertCounts {
  deleted: number;
  seconds: number;
}

// Loads the built-in world gazetteer through the place import's writer (COPY on PostgreSQL, array
// parameters on the built-in database): idempotent (fixed ids, unchanged rows untouched) and complete
// (rows the data no longer produces are deleted). Each batch commits on its own; a stopped load is
// finished by the next.
@Injectable()
export class GazetteerSeedService {
  constructor(private readonly places: PlaceRepository) {}

  async seed(
    options: WorldGazetteerOptions & { onProgress?: (done: number, total: number) => void } = {},
  ): Promise<GazetteerSeedSummary> {
    const started = Date.now();
    const rows = buildWorldGazetteer(options);
    const total: UpsertCounts = { inserted: 0, updated: 0, unchanged: 0 };
    const writer = await this.places.openImportSession({ source: GAZETTEER_SOURCE, dryRun: false });
    try {
      for (let i = 0; i < rows.length; i += GAZETTEER_BATCH_SIZE) {
        const counts = await writer.writeBatch(rows.slice(i, i + GAZETTEER_BATCH_SIZE));
        total.inserted += counts.inserted;
        total.updated += counts.updated;
        total.unchanged += counts.unchanged;
        options.onProgress?.(Math.min(rows.length, i + GAZETTEER_BATCH_SIZE), rows.length);
      }
      const deleted = await writer.deleteOtherPlaces(rows.map((r) => r.id));
      if (total.inserted + total.updated + deleted > 0) await writer.analyze();
      return { ...total, deleted, seconds: (Date.now() - started) / 1000 };
    } finally {
      await writer.close();
    }
  }

  count(): Promise<number> {
    return this.places.countBySource(GAZETTEER_SOURCE);
  }
}
