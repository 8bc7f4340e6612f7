import { Readable } from 'node:stream';
import { parse } from 'csv-parse';
import { ImportFormatException, ImportFormatExceptionCode } from './import-format.exception';
import { Rejection } from './rejection';
import { MAX_RECORD_BYTES } from './geojson-seq.reader';

// A number as CSV writes it: strictly decimal (no hex, no Infinity, no blanks).
export const CSV_NUMBER = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

export type CsvRow<H> = { line: number; header: H; cells: string[] } | { line: number; rejection: Rejection };

// CSV with a header row, streamed; shared by every CSV format (imagery, OpenAddresses). `readHeader`
// turns the header's names into whatever the format needs, or throws for a header it cannot use.
// Quoted fields may hold commas, quotes and newlines; UTF-8 with or without BOM. Rows whose field count
// differs from the header's are rejected one by one. Lines are 1-based (the header is line 1) and
// counted exactly, whatever the line endings.
export async function* readCsvTable<H>(input: Readable, readHeader: (names: string[]) => H): AsyncGenerator<CsvRow<H>> {
  // Structural errors are taken through on_skip instead of as stream errors: an errored stream discards
  // the records it has already parsed, and those come before the error and are good.
  let failure: Error | undefined;
  let unclosedAtEnd = false;
  const parser = parse({
    bom: true,
    raw: true, // the raw text of each record lets us count lines exactly (see lineBreaks)
    relax_quotes: true, // a stray quote inside an unquoted field is kept as text
    relax_column_count: true, // rows with the wrong field count are rejected below, one by one
    skip_empty_lines: true,
    max_record_size: MAX_RECORD_BYTES, // an unclosed quote must not read the rest of the file into memory
    skip_records_with_error: true,
    // Records completed after a failure (a truncated last line when the input broke off) are dropped.
    on_record: (record) => (failure ? null : record),
    on_skip: (error) => {
      if (error?.code === 'CSV_QUOTE_NOT_CLOSED' && !failure) unclosedAtEnd = true;
      else fail(error ?? new Error('unreadable CSV'));
    },
  });
  // After a fatal error the parser is ended (not destroyed), so what it parsed before is still read.
  const fail = (error: Error) => {
    if (failure) return;
    failure = error;
    input.unpipe(parser);
    parser.end();
  };
  input.on('error', fail);
  parser.on('error', fail);
  input.pipe(parser);
  if (input.errored) fail(input.errored); // it broke before we started

  let header: { value: H } | undefined;
  let width = 0;
  let nextLine = 1;
  try {
    for await (const { record, raw } of parser as AsyncIterable<{ record: string[]; raw: string }>) {
      const line = nextLine + leadingLineBreaks(raw);
      nextLine += lineBreaks(raw);
      if (!header) {
        header = { value: readHeader(record) };
        width = record.length;
        continue;
      }
      if (record.length !== width) {
        yield {
          line,
          rejection: { field: '(record)', reason: `has ${record.length} fields; the header has ${width}` },
        };
        continue;
      }
      yield { line, header: header.value, cells: record };
    }
  } finally {
    input.destroy();
    parser.destroy();
  }
  if (unclosedAtEnd && !failure) {
    // Only at the very end: the last record is broken, everything before it was read.
    yield {
      line: nextLine,
      rejection: { field: '(record)', reason: 'a quoted field is not closed before the end of the file' },
    };
  }
  if (!failure) return;
  const code = (failure as { code?: string }).code;
  if (code === 'CSV_MAX_RECORD_SIZE') {
    throw new ImportFormatException(
      ImportFormatExceptionCode.INVALID_INPUT,
      `line ${nextLine}: a record is longer than ${MAX_RECORD_BYTES} bytes (an unclosed quote?); the rest of the file was not read`,
    );
  }
  if (code?.startsWith('CSV_'))
    throw new ImportFormatException(ImportFormatExceptionCode.INVALID_INPUT, `line ${nextLine}: ${failure.message}`);
  throw failure;
}

// csv-parse's own line count drifts on CRLF inside quoted fields, so lines are counted from the raw
// text: CRLF, a lone CR and a lone LF each end one line. (csv-parse leaves the LF of a CRLF record
// delimiter out of the raw text; a lone CR then stands for the whole CRLF.)
function lineBreaks(raw: string): number {
  let n = 0;
  for (let i = 0; i < raw.length; i++) {
    const c = raw.charCodeAt(i);
    if (c === 0x0a) n++;
    else if (c === 0x0d) {
      n++;
      if (raw.charCodeAt(i + 1) === 0x0a) i++;
    }
  }
  return n;
}

// Empty lines skipped before a record are part of its raw text.
function leadingLineBreaks(raw: string): number {
  const m = /^[\r\n]+/.exec(raw);
  return m ? lineBreaks(m[0]) : 0;
}

// A cell value quoted for a rejection message, cut short.
export function quoteCell(s: string): string {
  return JSON.stringify(s.length > 40 ? `${s.slice(0, 40)}…` : s);
}
