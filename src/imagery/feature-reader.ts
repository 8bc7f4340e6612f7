import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { pipeline, Readable } from 'node:stream';
import { parser } from 'stream-json';
import { pick } from 'stream-json/filters/Pick';
import { streamArray } from 'stream-json/streamers/StreamArray';

export type ImportFormat = 'ndjson' | 'geojson';

export interface FeatureItem {
  /** 1-based line number (NDJSON) or feature index (FeatureCollection, 0-based as in `features[i]`). */
  position: number;
  feature?: unknown;
  error?: string;
}

const EXTENSIONS: Record<string, ImportFormat> = {
  '.geojson': 'geojson',
  '.json': 'geojson',
  '.ndjson': 'ndjson',
  '.geojsonl': 'ndjson',
  '.geojsons': 'ndjson',
  '.jsonl': 'ndjson',
};

export function formatFromPath(path: string): ImportFormat | undefined {
  const match = /\.[a-z]+$/i.exec(path);
  return match ? EXTENSIONS[match[0].toLowerCase()] : undefined;
}

// Streams features one at a time: memory stays flat whatever the file size.
export function readFeatures(input: Readable, format: ImportFormat): AsyncGenerator<FeatureItem> {
  return format === 'ndjson' ? readLines(input) : readCollection(input);
}

export function openFile(path: string): Readable {
  return createReadStream(path);
}

async function* readLines(input: Readable): AsyncGenerator<FeatureItem> {
  const lines = createInterface({ input, crlfDelay: Infinity });
  let lineNo = 0;
  for await (const raw of lines) {
    lineNo++;
    // RFC 8142 text sequences start each record with RS (0x1E); a UTF-8 BOM may open the file.
    const line = raw.replace(/^\uFEFF/, '').replace(/^\u001e/, '').trim();
    if (line === '') continue;
    try {
      yield { position: lineNo, feature: JSON.parse(line) };
    } catch {
      yield { position: lineNo, error: 'malformed JSON' };
    }
  }
}

async function* readCollection(input: Readable): AsyncGenerator<FeatureItem> {
  // pipeline() destroys every stage on the first error, so the iterator below rejects with it.
  const features = pipeline(input, parser(), pick({ filter: 'features' }), streamArray(), () => undefined);
  try {
    for await (const { key, value } of features as AsyncIterable<{ key: number; value: unknown }>) {
      yield { position: key, feature: value };
    }
  } catch (error) {
    // A syntax error makes the rest of the document unreadable: report it and stop.
    throw new Error(`The FeatureCollection is not valid JSON: ${(error as Error).message}`);
  }
}
