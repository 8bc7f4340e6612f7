import { spawn, spawnSync } from 'node:child_process';
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { splitRecords } from '../../imagery/formats/geojson-seq.reader';
import { PlaceException, PlaceExceptionCode } from '../place.exception';
import { representativePoint } from '../place-geometry';
import type { PlaceItem } from '../place-item';
import { OsmContext } from './osm-context';
import { OSM_KEPT_TAGS, osmSourceId, OsmTags, placesFromOsm } from './osm-tags';

export const OSMIUM_MISSING =
  "reading OpenStreetMap files needs the osmium command from Debian's osmium-tool package (BSL-1.0): apt-get install -y osmium-tool";

// What osmium builds: lines from highway ways, areas from buildings and other closed ways that carry an
// address or a place; only the tags placesFromOsm reads are kept, so other objects never leave osmium.
const EXPORT_CONFIG = {
  attributes: { type: false, id: false },
  linear_tags: ['highway'],
  area_tags: ['building', 'addr:housenumber', 'amenity', 'shop', 'tourism', 'place', 'boundary'],
  include_tags: OSM_KEPT_TAGS,
};

// Lines of osmium's error output kept for the error message.
const STDERR_TAIL = 2000;

// Whether the osmium command can be run (checked before an import starts, for a clear message).
export function osmiumAvailable(): boolean {
  const probe = spawnSync('osmium', ['--version'], { stdio: 'ignore' });
  return probe.error === undefined && probe.status === 0;
}

// An OpenStreetMap file (.osm.pbf, or .osm/.osc XML) through `osmium export`, which turns nodes, ways
// and multipolygon relations into GeoJSON features one per line; they are streamed and mapped one at a
// time. osmium keeps the node locations in its own index (memory for small extracts; see osmium's
// --index-type for a planet) and reads the file twice, so it needs a file, not standard input.
// Positions are OSM ids ("n123", "w456", "r789").
export async function* readOsm(path: string): AsyncGenerator<PlaceItem> {
  await stat(path); // a missing file fails here, clearly, not inside osmium
  const dir = await mkdtemp(join(tmpdir(), 'lis-osm-'));
  const config = join(dir, 'export.json');
  await writeFile(config, JSON.stringify(EXPORT_CONFIG));
  const child = spawn(
    'osmium',
    [
      'export',
      '--config',
      config,
      '--add-unique-id=type_id',
      '--output-format=geojsonseq',
      '--format-option=print_record_separator=false',
      '--no-progress',
      '--output=-',
      path,
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-STDERR_TAIL)));
  const exited = new Promise<{ code: number | null; error?: Error }>((resolve) => {
    child.on('error', (error) => resolve({ code: null, error }));
    child.on('close', (code) => resolve({ code }));
  });
  const context = new OsmContext();
  let finished = false;
  let outcome: { code: number | null; error?: Error };
  try {
    for await (const segment of splitRecords(child.stdout)) {
      let feature: { id?: unknown; geometry?: { type?: string }; properties?: OsmTags };
      try {
        feature = JSON.parse(segment.bytes?.toString('utf8') ?? 'null');
      } catch {
        feature = {};
      }
      const id = osmSourceId(feature?.id);
      const point = representativePoint(feature?.geometry);
      if (!id || !point) {
        yield {
          position: id ?? `line ${segment.line}`,
          rejection: { field: 'geometry', reason: 'osmium gave no usable feature' },
        };
        continue;
      }
      const line = /LineString$/.test(feature.geometry?.type ?? '');
      const tags = feature.properties ?? {};
      const places = placesFromOsm(id, tags, point[0], point[1], line);
      if (places.length === 0) yield { position: id, skipped: true };
      for (const { id: sourceId, place } of places) {
        context.complete(place);
        context.learn(place, tags.place);
        yield { position: sourceId, place: { ...place, id: sourceId } };
      }
    }
    finished = true;
  } finally {
    if (!finished) child.kill(); // stopped early: osmium need not read on
    outcome = await exited;
    await rm(dir, { recursive: true, force: true });
  }
  if ((outcome.error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT')
    throw new PlaceException(PlaceExceptionCode.INVALID_INPUT, OSMIUM_MISSING);
  if (outcome.error) throw outcome.error;
  if (outcome.code !== 0) {
    const message = stderr.trim().split('\n').filter(Boolean).pop() ?? `exit code ${outcome.code}`;
    throw new PlaceException(PlaceExceptionCode.INVALID_INPUT, `osmium could not read ${path}: ${message}`);
  }
}
