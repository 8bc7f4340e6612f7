import { Injectable } from '@nestjs/common';
import { FeatureItem } from './feature-reader';
import { ImageryRecord, parseFeature } from './imagery-feature';
import { ImageryRepository } from './imagery.repository';

export const DEFAULT_BATCH_SIZE = 1000;

export interface ImportRejection {
  position: number;
  field: string;
  reason: string;
}

export interface ImportSummary {
  read: number;
  inserted: number;
  updated: number;
  unchanged: number;
  rejected: number;
  rejections: ImportRejection[];
}

export interface ImportOptions {
  source?: string | null;
  batchSize?: number;
  /** Keep at most this many rejections in the summary (all are counted). */
  maxReportedRejections?: number;
  onRejection?: (rejection: ImportRejection) => void;
  /** Called after every committed batch with the running totals. */
  onProgress?: (summary: ImportSummary) => void;
}

@Injectable()
export class ImageryImportService {
  constructor(private readonly repository: ImageryRepository) {}

  async importFeatures(items: AsyncIterable<FeatureItem>, options: ImportOptions = {}): Promise<ImportSummary> {
    const batchSize = options.batchSize ?? DEFAULT_BATCH_SIZE;
    const keep = options.maxReportedRejections ?? 1000;
    const summary: ImportSummary = { read: 0, inserted: 0, updated: 0, unchanged: 0, rejected: 0, rejections: [] };
    // Keyed by id: a record repeated within one batch would make the upsert touch a row twice.
    let batch = new Map<string, ImageryRecord>();

    const flush = async () => {
      const counts = await this.repository.upsertBatch([...batch.values()], options.source ?? null);
      summary.inserted += counts.inserted;
      summary.updated += counts.updated;
      summary.unchanged += counts.unchanged;
      batch = new Map();
      options.onProgress?.(summary);
    };

    for await (const item of items) {
      summary.read++;
      const result = item.error
        ? { ok: false as const, rejection: { field: '(record)', reason: item.error } }
        : parseFeature(item.feature);
      if (!result.ok) {
        const rejection = { position: item.position, ...result.rejection };
        summary.rejected++;
        if (summary.rejections.length < keep) summary.rejections.push(rejection);
        options.onRejection?.(rejection);
        continue;
      }
      if (batch.has(result.record.id)) summary.unchanged++; // superseded by the later copy in this batch
      batch.set(result.record.id, result.record);
      if (batch.size >= batchSize) await flush();
    }
    if (batch.size > 0) await flush();
    return summary;
  }
}
