import { closeSync, openSync, writeSync } from 'node:fs';
import { Client } from 'pg';
import { benchRecords } from '../bench/bench-dataset';
import { typoOf } from '../bench/bench-queries';
import { GeneratedRecord, toFeature } from '../helpers/imagery-files';
import { seededRandom } from '../../src/common/deterministic-random';

// The differential suite's request bodies: every search class (exact, street-like, prefix, typo, broad
// with pages, coordinates, text near a point, a box, a region, place names as written and misspelt,
// filters, and every date at each record's spot), built from records and places the database holds,
// the same list from the same data.
export interface DiffBody {
  class: string;
  body: Record<string, unknown>;
}

interface Sample {
  address: string;
  lat: number;
  lon: number;
  region: string | null;
}

const SAMPLES = 20;
const BENCH_SEED = 34;

export async function differentialBodies(databaseUrl: string): Promise<DiffBody[]> {
  const db = new Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    // md5 of the id: a spread of the catalogue that does not depend on physical order (or on shards).
    const records = (
      await db.query<Sample>(`SELECT address, ST_Y(location) AS lat, ST_X(location) AS lon, region_code AS region
        FROM imagery ORDER BY md5(id::text) LIMIT ${SAMPLES}`)
    ).rows;
    const places = (
      await db.query<{ name: string; region: string | null }>(`SELECT name, region_code AS region FROM places
        WHERE kind = 'locality' AND region_code IS NOT NULL ORDER BY md5(id::text) LIMIT ${SAMPLES}`)
    ).rows;
    return [...recordBodies(records), ...placeBodies(places), ...broadBodies()];
  } finally {
    await db.end();
  }
}

function recordBodies(records: Sample[]): DiffBody[] {
  const rand = seededRandom(34);
  const out: DiffBody[] = [];
  for (const r of records) {
    // Words with letters: a bare house number ("9") matches thousands of addresses at one score.
    const words = r.address.split(/[\s,]+/).filter((w) => /\p{L}{3}/u.test(w));
    if (words.length < 2) continue;
    const point = { lat: r.lat, lon: r.lon };
    out.push(
      { class: 'exact', body: { query: r.address, limit: 5 } },
      { class: 'street_city', body: { query: words.slice(0, 2).join(' '), limit: 10 } },
      { class: 'prefix', body: { query: words[0].slice(0, 4), limit: 10 } },
      { class: 'typo', body: { query: typoOf(r.address, rand), limit: 5 } },
      { class: 'coordinates', body: { query: `${r.lat}, ${r.lon}`, limit: 10 } },
      { class: 'text_near', body: { query: words[0], near: { ...point, radius_m: 20_000 }, limit: 10 } },
      {
        class: 'bbox',
        body: { bbox: [r.lon - 0.5, r.lat - 0.5, r.lon + 0.5, r.lat + 0.5], limit: 20, page: 2 },
      },
      {
        class: 'filters',
        body: { query: words[0], captured_after: '2015-01-01', interactive: true, limit: 10 },
      },
      // One index probe per record of the page on a distributed table (include history's union).
      { class: 'history', body: { near: { ...point, radius_m: 2_000 }, limit: 10, include: ['history'] } },
    );
    if (r.region) out.push({ class: 'region', body: { query: words[0], region: r.region, limit: 10 } });
  }
  return out;
}

function placeBodies(places: Array<{ name: string; region: string | null }>): DiffBody[] {
  const rand = seededRandom(35);
  return places.flatMap((p) => [
    { class: 'place', body: { query: p.name, limit: 10 } },
    { class: 'place_typo', body: { query: typoOf(p.name, rand), limit: 10 } },
    { class: 'place_region', body: { query: p.name, region: p.region, limit: 10 } },
  ]);
}

// Broad words, page after page: the fan-out and merge of large matches.
function broadBodies(): DiffBody[] {
  const words = ['street', 'avenue', 'United States', 'springfield', 'lake', 'north'];
  return words.flatMap((w) =>
    [1, 2, 3, 7].map((page) => ({ class: 'broad_pages', body: { query: w, limit: 20, page } })),
  );
}

/** Writes `records` generated records (the benchmark's streets, test/bench) as NDJSON, for `npm run import`. */
export function writeBenchRecords(path: string, records: number): void {
  writeFeatures(path, benchRecords(BENCH_SEED, records));
}

/** What an import of a file counts (its CLI's summary line). */
export interface ImportCounts {
  read: number;
  inserted: number;
  updated: number;
  unchanged: number;
  deleted: number;
  rejected: number;
}

/**
 * A changed copy of writeBenchRecords(path, records)'s file: every 10th record gone, every 5th readdressed
 * (the address of a record half the file away: other words), every 7th moved 0.001 degrees east, and
 * records / 50 new ones (the generator's next records). Returns what an import of it with
 * --delete-missing over the first file's records counts.
 */
export function writeChangedBenchRecords(path: string, records: number): ImportCounts {
  const all = [...benchRecords(BENCH_SEED, records + Math.ceil(records / 50))];
  const counts: ImportCounts = { read: 0, inserted: 0, updated: 0, unchanged: 0, deleted: 0, rejected: 0 };
  const out: GeneratedRecord[] = [];
  all.forEach((r, i) => {
    if (i >= records) {
      counts.inserted++;
      out.push(r);
      return;
    }
    if (i % 10 === 9) {
      counts.deleted++;
      return;
    }
    const changed = { ...r };
    if (i % 5 === 0) changed.address = all[(i + Math.floor(records / 2)) % records].address;
    if (i % 7 === 0) changed.lon = Math.round((r.lon + 0.001) * 1e7) / 1e7;
    counts[JSON.stringify(changed) === JSON.stringify(r) ? 'unchanged' : 'updated']++;
    out.push(changed);
  });
  counts.read = out.length;
  writeFeatures(path, out);
  return counts;
}

function writeFeatures(path: string, records: Iterable<GeneratedRecord>): void {
  const fd = openSync(path, 'w');
  try {
    let chunk = '';
    for (const r of records) {
      chunk += `${JSON.stringify(toFeature(r))}\n`;
      if (chunk.length > 1 << 20) {
        writeSync(fd, chunk);
        chunk = '';
      }
    }
    writeSync(fd, chunk);
  } finally {
    closeSync(fd);
  }
}
