import { Injectable } from '@nestjs/common';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { ImportFormat } from '../import-formats/import-input';
import { csvWriter } from './formats/csv.writer';
import { geoJsonWriter } from './formats/geojson.writer';
import { ImageryRecord } from './imagery-feature';
import { ExportFilter, ImageryRepository } from './imagery.repository';

/** Pages of matching ids, best first (a search's result pages). */
export type IdPages = AsyncIterable<string[]>;

export interface ExportResult {
  records: number;
}

// Writes the catalogue (or a search's matches) in a format the importer reads back unchanged.
@Injectable()
export class ImageryExportService {
  constructor(private readonly repository: ImageryRepository) {}

  catalogue(filter: ExportFilter = {}): AsyncIterable<ImageryRecord> {
    return this.repository.exportRecords(filter);
  }

  // Full records for pages of ids, in the order given; an id seen twice is written once.
  async *byIds(pages: IdPages): AsyncGenerator<ImageryRecord> {
    const seen = new Set<string>();
    for await (const page of pages) {
      const fresh = page.filter((id) => !seen.has(id));
      fresh.forEach((id) => seen.add(id));
      yield* await this.repository.findByIds(fresh);
    }
  }

  async write(
    records: AsyncIterable<ImageryRecord>,
    format: ImportFormat,
    out: Writable,
    gzip = false,
  ): Promise<ExportResult> {
    const result: ExportResult = { records: 0 };
    async function* counted(source: AsyncIterable<ImageryRecord>) {
      for await (const r of source) {
        result.records++;
        yield r;
      }
    }
    const stages = format === 'csv' ? csvWriter() : [geoJsonWriter(format)];
    const tail: Writable[] = gzip ? [createGzip(), out] : [out];
    // pipeline() keeps backpressure end to end and tears every stage down on the first error.
    await (pipeline as (...streams: unknown[]) => Promise<void>)(
      Readable.from(counted(records)),
      ...stages,
      coalesce,
      ...tail,
    );
    return result;
  }
}

// One write per ~64 KB instead of one per record: far fewer syscalls and zlib calls.
async function* coalesce(chunks: AsyncIterable<string | Buffer>): AsyncGenerator<string> {
  let buffered = '';
  for await (const chunk of chunks) {
    buffered += chunk.toString();
    if (buffered.length >= 64 * 1024) {
      yield buffered;
      buffered = '';
    }
  }
  if (buffered !== '') yield buffered;
}
