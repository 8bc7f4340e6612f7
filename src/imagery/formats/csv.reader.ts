import { Readable } from 'node:stream';
import { Rejection } from '../../import-formats/rejection';
import { FeatureItem, RawRecord } from '../imagery-feature';
import { ImageryException, ImageryExceptionCode } from '../imagery.exception';
import { CSV_NUMBER as NUMBER, quoteCell as quote, readCsvTable } from '../../import-formats/csv-table.reader';

// source and address_origin came later: they stay last, so older files and headers read as before.
export const CSV_COLUMNS = [
  'id',
  'address',
  'captured_at',
  'heading',
  'interactive',
  'image_url',
  'lon',
  'lat',
  'source',
  'address_origin',
] as const;
type CsvColumn = (typeof CSV_COLUMNS)[number];
const OPTIONAL: ReadonlySet<CsvColumn> = new Set(['id', 'address', 'interactive', 'source', 'address_origin']);

// CSV with a header row naming the columns (any order; unknown columns are ignored); see readCsvTable.
export async function* readCsv(input: Readable): AsyncGenerator<FeatureItem> {
  for await (const row of readCsvTable(input, readHeader)) {
    if ('rejection' in row) {
      yield { position: row.line, rejection: row.rejection };
      continue;
    }
    const typed = typeRow(row.cells, row.header);
    yield 'rejection' in typed
      ? { position: row.line, rejection: typed.rejection }
      : { position: row.line, record: typed.record };
  }
}

function readHeader(names: string[]): Map<CsvColumn, number> {
  const header = new Map<CsvColumn, number>();
  names.forEach((raw, i) => {
    const name = raw.trim().toLowerCase() as CsvColumn;
    if (!CSV_COLUMNS.includes(name)) return;
    if (header.has(name))
      throw new ImageryException(ImageryExceptionCode.INVALID_INPUT, `the CSV header names "${name}" twice`);
    header.set(name, i);
  });
  const missing = CSV_COLUMNS.filter((c) => !OPTIONAL.has(c) && !header.has(c));
  if (missing.length > 0) {
    throw new ImageryException(
      ImageryExceptionCode.INVALID_INPUT,
      `the CSV header lacks ${missing.join(', ')}; expected the columns ${CSV_COLUMNS.join(',')}`,
    );
  }
  return header;
}

// CSV has only text: numbers and booleans are read strictly, an empty cell counts as missing.
function typeRow(row: string[], header: Map<CsvColumn, number>): { record: RawRecord } | { rejection: Rejection } {
  const cell = (c: CsvColumn) => {
    const i = header.get(c);
    return i === undefined || row[i] === '' ? undefined : row[i];
  };
  const record: RawRecord = {
    id: cell('id'),
    address: cell('address'),
    address_origin: cell('address_origin'),
    source: cell('source'),
    captured_at: cell('captured_at'),
    image_url: cell('image_url'),
  };
  for (const c of ['heading', 'lon', 'lat'] as const) {
    const value = cell(c)?.trim();
    if (value === undefined || value === '') continue;
    if (!NUMBER.test(value)) return { rejection: { field: c, reason: `must be a number, got ${quote(value)}` } };
    record[c] = Number(value);
  }
  const interactive = cell('interactive')?.trim().toLowerCase();
  if (interactive !== undefined && interactive !== '') {
    if (interactive === 'true' || interactive === '1') record.interactive = true;
    else if (interactive === 'false' || interactive === '0') record.interactive = false;
    else return { rejection: { field: 'interactive', reason: `must be true or false, got ${quote(interactive)}` } };
  }
  return { record };
}
