import { isUtf8 } from 'node:buffer';
import type { Rejection } from './rejection';

const LF = 0x0a;
const RS = 0x1e;
// eslint-disable-next-line no-control-regex -- the record separator (RS, U+001E) is what this strips
const LEADING_RS = /^[\s\u001e]+/;
// A UTF-8 byte order mark and whitespace.
const LEADING = new Set([0xef, 0xbb, 0xbf, 0x20, 0x09, 0x0d, LF]);
// A bound on one record: a runaway line (a file without newlines) is rejected, never held in memory whole.
export const MAX_RECORD_BYTES = 1024 * 1024;

// What a GeoJSON reader yields per record, before validation (by the importer the Feature is for).
export interface GeoJsonItem {
  /** 1-based line number, or the feature index for a FeatureCollection (0-based as in `features[i]`). */
  position: number;
  /** A GeoJSON Feature. */
  feature?: unknown;
  /** What made the reader give up on this record (malformed line, wrong field count, wrong type). */
  rejection?: Rejection;
}

interface Segment {
  line: number;
  bytes?: Buffer;
  tooLong?: true;
}

// One Feature per record: newline-delimited (NDJSON, GeoJSONL) or an RFC 8142 text sequence, where an
// RS (0x1E) starts each record and a record may span lines. Streams; positions are 1-based line numbers.
export async function* readGeoJsonSeq(input: AsyncIterable<Buffer>): AsyncGenerator<GeoJsonItem> {
  for await (const segment of splitRecords(input)) {
    if (segment.tooLong) {
      yield {
        position: segment.line,
        rejection: { field: '(record)', reason: `longer than ${MAX_RECORD_BYTES} bytes` },
      };
      continue;
    }
    const bytes = segment.bytes!;
    if (!isUtf8(bytes)) {
      yield { position: segment.line, rejection: { field: '(record)', reason: 'not valid UTF-8' } };
      continue;
    }
    // NDJSON files may still start lines with RS (some tools write text sequences one per line).
    const text = bytes.toString('utf8').replace(LEADING_RS, '').trimEnd();
    if (text === '') continue;
    try {
      yield { position: segment.line, feature: JSON.parse(text) };
    } catch {
      yield { position: segment.line, rejection: { field: '(record)', reason: 'malformed JSON' } };
    }
  }
}

// Splits bytes into records at LF, or at RS when the input starts with RS (RFC 8142); each record
// carries the line it starts on. Only the current record is held in memory, up to MAX_RECORD_BYTES.
export async function* splitRecords(input: AsyncIterable<Buffer>): AsyncGenerator<Segment> {
  let delimiter = -1;
  let parts: Buffer[] = [];
  let size = 0;
  let tooLong = false;
  let line = 1; // the line the current record starts on
  let linesInRecord = 0; // LFs inside the current record (RS mode)

  const take = (piece: Buffer) => {
    if (delimiter === RS) linesInRecord += countLf(piece);
    if (tooLong) return;
    if (size + piece.length > MAX_RECORD_BYTES) {
      tooLong = true;
      parts = [];
      size = 0;
      return;
    }
    parts.push(piece);
    size += piece.length;
  };
  const finish = (): Segment | undefined => {
    const segment: Segment | undefined = tooLong
      ? { line, tooLong: true }
      : size > 0
        ? { line, bytes: parts.length === 1 ? parts[0] : Buffer.concat(parts, size) }
        : undefined;
    line += delimiter === RS ? linesInRecord : 1;
    parts = [];
    size = 0;
    tooLong = false;
    linesInRecord = 0;
    return segment;
  };

  for await (const chunk of input) {
    let start = 0;
    if (delimiter === -1) {
      // Leading BOM and whitespace are no record (only their lines count); the first other byte
      // decides the mode: RS means a text sequence.
      const significant = chunk.findIndex((b) => !LEADING.has(b));
      if (significant === -1) {
        line += countLf(chunk);
        continue;
      }
      line += countLf(chunk.subarray(0, significant));
      delimiter = chunk[significant] === RS ? RS : LF;
      start = delimiter === RS ? significant + 1 : significant;
    }
    for (;;) {
      const end = chunk.indexOf(delimiter, start);
      if (end === -1) break;
      take(chunk.subarray(start, end));
      const segment = finish();
      if (segment) yield segment;
      start = end + 1;
    }
    if (start < chunk.length) take(chunk.subarray(start));
  }
  const last = finish();
  if (last) yield last;
}

function countLf(buf: Buffer): number {
  let n = 0;
  for (let i = buf.indexOf(LF); i !== -1; i = buf.indexOf(LF, i + 1)) n++;
  return n;
}
