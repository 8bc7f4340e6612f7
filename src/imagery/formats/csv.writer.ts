import { stringify } from 'csv-stringify';
import type { ImageryRecord } from '../imagery-feature';
import { CSV_COLUMNS } from './csv.reader';

// CSV with the import header, as pipeline stages: records become rows of text (booleans as true/false,
// numbers at full precision, no source or heading as an empty cell), then csv-stringify quotes fields holding commas, quotes or newlines.
export function csvWriter() {
  async function* rows(records: AsyncIterable<ImageryRecord>): AsyncGenerator<string[]> {
    for await (const r of records) {
      yield [
        r.id,
        r.address ?? '',
        r.capturedAt,
        r.heading === null ? '' : String(r.heading),
        String(r.interactive),
        r.imageUrl,
        String(r.lon),
        String(r.lat),
        r.source ?? '',
        r.addressOrigin,
      ];
    }
  }
  return [rows, stringify({ header: true, columns: [...CSV_COLUMNS] })] as const;
}
