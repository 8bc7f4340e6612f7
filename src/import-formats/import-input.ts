import { createReadStream, ReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { pipeline, Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';

// geojson: a FeatureCollection. geojsonseq / ndjson: one Feature per record (RFC 8142 text sequence or
// newline-delimited; the reader takes either). csv: a header row, then one record per row.
export const IMPORT_FORMATS = ['geojson', 'geojsonseq', 'ndjson', 'csv'] as const;
export type ImportFormat = (typeof IMPORT_FORMATS)[number];

const EXTENSIONS: Record<string, ImportFormat> = {
  '.geojson': 'geojson',
  '.json': 'geojson',
  '.geojsons': 'geojsonseq',
  '.geojsonseq': 'geojsonseq',
  '.ndjson': 'ndjson',
  '.geojsonl': 'ndjson',
  '.jsonl': 'ndjson',
  '.ldjson': 'ndjson',
  '.csv': 'csv',
};

// The format a file name says (a trailing .gz is looked through).
export function formatFromPath(path: string): ImportFormat | undefined {
  const match = /(\.[a-z]+)(\.gz)?$/i.exec(path);
  return match ? EXTENSIONS[match[1].toLowerCase()] : undefined;
}

export function isImportFormat(value: string): value is ImportFormat {
  return (IMPORT_FORMATS as readonly string[]).includes(value);
}

// What a position means in messages and reports.
export function positionLabel(format: ImportFormat): 'line' | 'feature' {
  return format === 'geojson' ? 'feature' : 'line';
}

export interface ImportInput {
  stream: Readable;
  gzip: boolean;
  /** Size of the file on disk (compressed size for .gz); unknown for standard input. */
  totalBytes?: number;
  /** Bytes of the file consumed so far, comparable with totalBytes. */
  bytesRead(): number;
}

const GZIP_MAGIC = [0x1f, 0x8b];

// Opens a file, or standard input for '-'; gzip is recognised by its magic bytes, whatever the name.
export async function openInput(path: string, stdin: Readable = process.stdin): Promise<ImportInput> {
  let raw: Readable;
  let totalBytes: number | undefined;
  if (path === '-') {
    raw = stdin;
  } else {
    totalBytes = (await stat(path)).size; // fails early and clearly for a missing file
    raw = createReadStream(path);
  }
  const head = await peek(raw);
  const gzip = head !== null && head.length >= 2 && head[0] === GZIP_MAGIC[0] && head[1] === GZIP_MAGIC[1];
  // pipeline() destroys every stage on the first error, so a corrupt archive surfaces in the reader
  // (as stream.errored, or from iteration); the listener only keeps an error that happens before the
  // reader starts from being reported as uncaught.
  const stream = gzip ? pipeline(raw, createGunzip(), () => undefined) : raw;
  stream.on('error', () => undefined);
  return { stream, gzip, totalBytes, bytesRead: () => (raw instanceof ReadStream ? raw.bytesRead : 0) };
}

// Waits for the first chunk and puts it back, so the stream still starts at its first byte.
export function peek(stream: Readable): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const done = () => {
      stream.off('readable', onReadable);
      stream.off('end', onEnd);
      stream.off('error', onError);
    };
    const onReadable = () => {
      const chunk: Buffer | null = stream.read();
      if (chunk === null) return;
      done();
      stream.unshift(chunk);
      resolve(chunk);
    };
    const onEnd = () => {
      done();
      resolve(null);
    };
    const onError = (error: Error) => {
      done();
      reject(error);
    };
    stream.on('readable', onReadable);
    stream.on('end', onEnd);
    stream.on('error', onError);
  });
}
