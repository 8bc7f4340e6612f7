import { spawn, spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { splitRecords } from '../../import-formats/geojson-seq.reader';
import { PlaceException, PlaceExceptionCode } from '../place.exception';

export const OSMIUM_MISSING =
  "reading OpenStreetMap files needs the osmium command from Debian's osmium-tool package (BSL-1.0): apt-get install -y osmium-tool";

// Lines of osmium's error output kept for the error message.
const STDERR_TAIL = 2000;

/** What `osmium export --config` takes (https://osmcode.org/osmium-tool/manual.html#the-export-config-file). */
export interface OsmiumExportConfig {
  attributes: { type: boolean; id: boolean };
  linear_tags: string[];
  area_tags: string[];
  include_tags: string[];
}

/** One line of `osmium export`: null fields where the line was no usable feature. */
export interface OsmiumFeature {
  line: number;
  id?: unknown;
  geometry?: { type?: string; coordinates?: unknown };
  properties?: Record<string, string | undefined>;
}

// Whether the osmium command can be run (checked before an import starts, for a clear message).
export function osmiumAvailable(): boolean {
  const probe = spawnSync('osmium', ['--version'], { stdio: 'ignore' });
  return probe.error === undefined && probe.status === 0;
}

// `osmium export` as GeoJSON features, one per line, parsed as they arrive. osmium keeps the node
// locations in its own index (memory for small extracts; see osmium's --index-type for a planet) and
// reads the file twice, so it needs a file, not standard input.
export async function* osmiumExport(path: string, config: OsmiumExportConfig): AsyncGenerator<OsmiumFeature> {
  const dir = await mkdtemp(join(tmpdir(), 'lis-osm-'));
  const configFile = join(dir, 'export.json');
  await writeFile(configFile, JSON.stringify(config));
  const child = spawn(
    'osmium',
    [
      'export',
      '--config',
      configFile,
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
  let finished = false;
  let outcome: { code: number | null; error?: Error };
  try {
    for await (const segment of splitRecords(child.stdout)) {
      let feature: Omit<OsmiumFeature, 'line'> | null;
      try {
        feature = JSON.parse(segment.bytes?.toString('utf8') ?? 'null');
      } catch {
        feature = null;
      }
      yield { ...(feature && typeof feature === 'object' ? feature : {}), line: segment.line };
    }
    finished = true;
  } finally {
    if (!finished) child.kill(); // stopped early: osmium need not read on
    outcome = await exited;
    await rm(dir, { recursive: true, force: true });
  }
  failed(outcome, stderr, path);
}

function failed(outcome: { code: number | null; error?: Error }, stderr: string, path: string): void {
  if ((outcome.error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT')
    throw new PlaceException(PlaceExceptionCode.INVALID_INPUT, OSMIUM_MISSING);
  if (outcome.error) throw outcome.error;
  if (outcome.code !== 0) {
    const message = stderr.trim().split('\n').filter(Boolean).pop() ?? `exit code ${outcome.code}`;
    throw new PlaceException(PlaceExceptionCode.INVALID_INPUT, `osmium could not read ${path}: ${message}`);
  }
}
