import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { ImportFormat } from '../../src/import-formats/import-input';

const STREETS = [
  'Herrengasse',
  'Bahnhofstrasse',
  'Main Street',
  'Rue de la Paix',
  'Tübinger Straße',
  'Kirchweg',
  'Calle Mayor',
  'Ōdōri',
];
const CITIES = [
  '9490 Vaduz',
  '70178 Stuttgart',
  'Springfield, IL 62701',
  '75002 Paris',
  '8001 Zürich',
  'Madrid',
  'Sapporo',
];

export interface GeneratedRecord {
  id: string;
  address: string;
  captured_at: string;
  heading: number;
  interactive: boolean;
  image_url: string;
  lon: number;
  lat: number;
}

// Deterministic, valid, varied records: record i always looks the same (ids included), so files can be
// regenerated for re-import and compared. `variant` changes content but keeps ids (an "updated" file).
export function generatedRecord(i: number, variant = 0): GeneratedRecord {
  const day = 1 + ((i * 7 + variant) % 28);
  return {
    id: `00000000-0000-4000-8000-${i.toString(16).padStart(12, '0')}`,
    address: `${STREETS[i % STREETS.length]} ${1 + (i % 997)}, ${CITIES[i % CITIES.length]}`,
    captured_at: `${2008 + (i % 17)}-${String(1 + (i % 12)).padStart(2, '0')}-${String(day).padStart(2, '0')}`,
    heading: ((i * 37 + variant) % 3600) / 10,
    interactive: i % 3 === 0,
    image_url: `https://img.example.com/${i}.jpg`,
    lon: Math.round((-180 + ((i * 0.0137) % 360)) * 1e7) / 1e7,
    lat: Math.round((-85 + ((i * 0.0071) % 170)) * 1e7) / 1e7,
  };
}

// A record as written to a file: null writes it without an address.
export type FileRecord = Omit<GeneratedRecord, 'address'> & { address: string | null };

export function toFeature(r: FileRecord): object {
  const address = r.address === null ? {} : { address: r.address };
  return {
    type: 'Feature',
    id: r.id,
    geometry: { type: 'Point', coordinates: [r.lon, r.lat] },
    properties: {
      ...address,
      captured_at: r.captured_at,
      heading: r.heading,
      interactive: r.interactive,
      image_url: r.image_url,
    },
  };
}

const csvField = (v: string) => (/[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);

export function toCsvRow(r: FileRecord): string {
  return [
    r.id,
    csvField(r.address ?? ''),
    r.captured_at,
    r.heading,
    r.interactive,
    csvField(r.image_url),
    r.lon,
    r.lat,
  ].join(',');
}

export const CSV_HEADER = 'id,address,captured_at,heading,interactive,image_url,lon,lat';

export interface GenerateOptions {
  records: number;
  format: ImportFormat;
  gzip?: boolean;
  variant?: number;
  /** Record numbers to start from (default 0). */
  offset?: number;
  /** Percentage of records written without an address (record i when i % 100 < it); default 0. */
  withoutAddress?: number;
}

// Whether generated record i is written without an address.
export const isWithoutAddress = (i: number, percent = 0) => i % 100 < percent;

// Writes a file of generated records with backpressure: a million records never sit in memory.
export async function writeImageryFile(path: string, options: GenerateOptions): Promise<void> {
  const file = createWriteStream(path);
  let out: Writable = file;
  if (options.gzip) {
    out = createGzip({ level: 1 });
    out.pipe(file);
  }
  const write = async (text: string) => {
    if (!out.write(text)) await once(out, 'drain');
  };
  const offset = options.offset ?? 0;
  const end = offset + options.records;
  if (options.format === 'csv') await write(`${CSV_HEADER}\n`);
  if (options.format === 'geojson') await write('{"type":"FeatureCollection","features":[\n');
  let chunk = '';
  for (let i = offset; i < end; i++) {
    const generated = generatedRecord(i, options.variant);
    const r = isWithoutAddress(i, options.withoutAddress) ? { ...generated, address: null } : generated;
    if (options.format === 'csv') chunk += `${toCsvRow(r)}\n`;
    else if (options.format === 'geojson') chunk += `${i > offset ? ',' : ''}${JSON.stringify(toFeature(r))}\n`;
    else chunk += `${options.format === 'geojsonseq' ? '\u001e' : ''}${JSON.stringify(toFeature(r))}\n`;
    if (chunk.length > 64 * 1024) {
      await write(chunk);
      chunk = '';
    }
  }
  if (options.format === 'geojson') chunk += ']}\n';
  await write(chunk);
  out.end();
  await finished(file);
}
