import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import booleanPointInPolygon from '@turf/boolean-point-in-polygon';
import { distanceM } from './relevance-catalogue';
import { Geometry, OSM_FIXTURE, OsmObject, OsmTruth } from './osm-truth';

// Ground truth of the hierarchy categories, read with osmium from the .osm.pbf and nothing from
// src/places: the hamlets, villages and suburbs each address lies in or near (Nominatim's rule: the
// smallest place=* area of the kind around it, else the nearest place=* node of the kind within half
// of reverse_place_diameter for its search rank, in the same municipality), and the house numbers of
// addr:interpolation lines between their numbered nodes.

const METRES_PER_DEGREE = 111_320;
// Half of Nominatim's reverse_place_diameter, in degrees of latitude (village and suburb: rank 19;
// hamlet: rank 20).
const REACH_DEG: Record<string, number> = { village: 0.02, suburb: 0.02, hamlet: 0.01 };
export const HIERARCHY_KINDS = Object.keys(REACH_DEG);

interface PlaceFeature {
  kind: string;
  name: string;
  geometry: Geometry;
}

type Polygonal = Parameters<typeof booleanPointInPolygon>[1];
const inside = (p: [number, number], g: Geometry) =>
  (g.type === 'Polygon' || g.type === 'MultiPolygon') && booleanPointInPolygon(p, g as Polygonal);

function osmium(args: string[]): string {
  return execFileSync('osmium', [args[0], '--no-progress', ...args.slice(1)], {
    maxBuffer: 512 * 1024 * 1024,
  }).toString('utf8');
}

function placeFeatures(pbf: string): PlaceFeature[] {
  const dir = mkdtempSync(join(tmpdir(), 'lis-osm-hierarchy-'));
  try {
    const filtered = join(dir, 'places.osm.pbf');
    osmium(['tags-filter', '-o', filtered, pbf, ...HIERARCHY_KINDS.map((k) => `place=${k}`)]);
    return osmium(['export', '-f', 'geojsonseq', '--format-option=print_record_separator=false', filtered])
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map((l) => JSON.parse(l) as { geometry: Geometry; properties: Record<string, string> })
      .filter((f) => f.properties.name && HIERARCHY_KINDS.includes(f.properties.place))
      .map((f) => ({ kind: f.properties.place, name: f.properties.name, geometry: f.geometry }));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Per address, the names of the hamlet, village and suburb it lies in (by Nominatim's rule). */
export function addressHierarchies(truth: OsmTruth, pbf: string = OSM_FIXTURE): Map<OsmObject, string[]> {
  const features = placeFeatures(pbf);
  const municipalityOf = (p: [number, number]) =>
    [...truth.municipalities.entries()].find(([, g]) => inside(p, g))?.[0] ?? null;
  const nodes = features
    .filter((f) => f.geometry.type === 'Point')
    .map((f) => {
      const [lon, lat] = f.geometry.coordinates as [number, number];
      return { ...f, lon, lat, municipality: municipalityOf([lon, lat]) };
    });
  const out = new Map<OsmObject, string[]>();
  for (const o of truth.addresses) {
    const point: [number, number] = [o.lon, o.lat];
    const municipality = municipalityOf(point);
    const names: string[] = [];
    for (const kind of HIERARCHY_KINDS) {
      const own = o.tags[`addr:${kind}`];
      const area = features.find((f) => f.kind === kind && inside(point, f.geometry));
      const node = nodes
        .filter((n) => n.kind === kind && n.municipality === municipality)
        .map((n) => ({ n, d: distanceM(n, o) }))
        .filter(({ d }) => d <= REACH_DEG[kind] * METRES_PER_DEGREE)
        .sort((a, b) => a.d - b.d)[0]?.n;
      const name = own ?? area?.name ?? node?.name;
      // The town and the street already name themselves.
      const known = [municipality, o.address!.city, o.address!.street, o.address!.place];
      if (name && !known.includes(name) && !names.includes(name)) names.push(name);
    }
    if (names.length > 0) out.set(o, names);
  }
  return out;
}

export interface InterpolatedNumber {
  number: string;
  street: string;
  town: string | null;
  /** The number's point on the line, and a point beside it (an image taken from the pavement). */
  on: [number, number];
  beside: [number, number];
}

// OPL: "n1 v0 ... Taddr:housenumber=1001 x9.5697 y47.1185"; tags escape unusual characters as %hex%.
const unescape = (s: string) => s.replace(/%([0-9a-f]+)%/g, (_, h: string) => String.fromCodePoint(parseInt(h, 16)));
function parseOpl(text: string) {
  const nodes = new Map<string, { tags: Record<string, string>; at: [number, number] }>();
  const ways: Array<{ tags: Record<string, string>; refs: string[] }> = [];
  for (const line of text.split('\n')) {
    const fields = new Map(line.split(' ').map((f) => [f[0], f.slice(1)]));
    const tags = Object.fromEntries(
      (fields.get('T') ?? '')
        .split(',')
        .filter(Boolean)
        .map((kv) => kv.split('=').map(unescape) as [string, string]),
    );
    if (line.startsWith('n'))
      nodes.set(line.split(' ')[0], { tags, at: [Number(fields.get('x')), Number(fields.get('y'))] });
    if (line.startsWith('w')) ways.push({ tags, refs: (fields.get('N') ?? '').split(',').filter(Boolean) });
  }
  return { nodes, ways };
}

const STEPS: Record<string, number> = { odd: 2, even: 2, all: 1 };
const BESIDE_M = 3;

/** The numbers strictly between the numbered nodes of each addr:interpolation line (odd, even or all),
 * each at its share of the piece's length, with their points. */
export function interpolatedNumbers(
  truth: OsmTruth,
  streetLines: StreetLine[],
  pbf = OSM_FIXTURE,
): InterpolatedNumber[] {
  const { nodes, ways } = parseOpl(osmiumInterpolation(pbf));
  const out: InterpolatedNumber[] = [];
  for (const way of ways) {
    const kind = way.tags['addr:interpolation'];
    const step = STEPS[kind];
    const points = way.refs.map((r) => nodes.get(r)).filter((n) => n !== undefined);
    const numbered = points.flatMap((n, i) => (/^\d+$/.test(n.tags['addr:housenumber'] ?? '') ? [i] : []));
    if (!step || points.length !== way.refs.length) continue;
    for (let k = 1; k < numbered.length; k++) {
      const piece = points.slice(numbered[k - 1], numbered[k] + 1);
      const [a, b] = [piece[0], piece[piece.length - 1]];
      const street =
        a.tags['addr:street'] ?? b.tags['addr:street'] ?? way.tags['addr:street'] ?? nearestStreet(streetLines, a.at);
      if (!street) continue;
      const [from, to] = [Number(a.tags['addr:housenumber']), Number(b.tags['addr:housenumber'])];
      const line = piece.map((n) => n.at);
      for (let n = Math.min(from, to) + 1; n < Math.max(from, to); n++) {
        if ((kind === 'odd' && n % 2 === 0) || (kind === 'even' && n % 2 === 1)) continue;
        const on = pointAlong(line, Math.abs(n - from) / Math.abs(to - from));
        const beside = offset(line, on, BESIDE_M);
        const town = [...truth.municipalities.entries()].find(([, g]) => inside(on, g))?.[0] ?? null;
        out.push({ number: String(n), street, town, on, beside });
      }
    }
  }
  return out;
}

function osmiumInterpolation(pbf: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'lis-osm-interpolation-'));
  try {
    const filtered = join(dir, 'interpolation.osm.pbf');
    osmium(['tags-filter', '-o', filtered, pbf, 'w/addr:interpolation']);
    return osmium(['cat', '-f', 'opl', filtered]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export interface StreetLine {
  name: string;
  line: Array<[number, number]>;
}

/** Named highway lines, for the street of an interpolation line whose nodes name none. */
export function streetLines(pbf = OSM_FIXTURE): StreetLine[] {
  const dir = mkdtempSync(join(tmpdir(), 'lis-osm-streets-'));
  try {
    const filtered = join(dir, 'streets.osm.pbf');
    osmium(['tags-filter', '-o', filtered, pbf, 'w/highway', 'w/name']);
    osmium(['tags-filter', '-o', `${filtered}.named.osm.pbf`, filtered, 'w/name']);
    return osmium([
      'export',
      '-f',
      'geojsonseq',
      '--format-option=print_record_separator=false',
      `${filtered}.named.osm.pbf`,
    ])
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map((l) => JSON.parse(l) as { geometry: Geometry; properties: Record<string, string> })
      .filter((f) => f.properties.highway && f.properties.name && f.geometry.type === 'LineString')
      .map((f) => ({ name: f.properties.name, line: f.geometry.coordinates as Array<[number, number]> }));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// Local metres east and north of `origin`.
const metres = (p: [number, number], origin: [number, number]) => [
  (p[0] - origin[0]) * METRES_PER_DEGREE * Math.cos((origin[1] * Math.PI) / 180),
  (p[1] - origin[1]) * METRES_PER_DEGREE,
];

function segmentDistance(p: [number, number], a: [number, number], b: [number, number]): number {
  const [bx, by] = metres(b, a);
  const [px, py] = metres(p, a);
  const t = bx === 0 && by === 0 ? 0 : Math.max(0, Math.min(1, (px * bx + py * by) / (bx * bx + by * by)));
  return Math.hypot(px - t * bx, py - t * by);
}

// The named street nearest to the point within 100 m (the line's first numbered node).
function nearestStreet(streets: StreetLine[], p: [number, number]): string | null {
  let best: { name: string; d: number } | null = null;
  for (const s of streets)
    for (let i = 1; i < s.line.length; i++) {
      const d = segmentDistance(p, s.line[i - 1], s.line[i]);
      if (d <= 100 && (!best || d < best.d)) best = { name: s.name, d };
    }
  return best?.name ?? null;
}

function pointAlong(line: Array<[number, number]>, share: number): [number, number] {
  const lengths = line.slice(1).map((p, i) => Math.hypot(...metres(p, line[i])));
  let left = share * lengths.reduce((s, l) => s + l, 0);
  for (let i = 0; i < lengths.length; i++) {
    if (left <= lengths[i] && lengths[i] > 0) {
      const t = left / lengths[i];
      return [line[i][0] + t * (line[i + 1][0] - line[i][0]), line[i][1] + t * (line[i + 1][1] - line[i][1])];
    }
    left -= lengths[i];
  }
  return line[line.length - 1];
}

// A point `m` metres to the left of the line's first segment direction, beside `on`.
function offset(line: Array<[number, number]>, on: [number, number], m: number): [number, number] {
  const [dx, dy] = metres(line[line.length - 1], line[0]);
  const length = Math.hypot(dx, dy) || 1;
  const cos = Math.cos((on[1] * Math.PI) / 180);
  return [on[0] + ((-dy / length) * m) / (METRES_PER_DEGREE * cos), on[1] + ((dx / length) * m) / METRES_PER_DEGREE];
}
