import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import booleanPointInPolygon from '@turf/boolean-point-in-polygon';
import { distanceM } from './relevance-catalogue';

// Ground truth for the OpenStreetMap relevance suite, read straight from the .osm.pbf with osmium and
// nothing from src/places: what the objects are, and where, comes from their OSM tags alone, so the
// suite cannot confirm the importer's own reading of the file.

export const OSM_FIXTURE = join(__dirname, '../fixtures/osm/liechtenstein.osm.pbf');

// Liechtenstein and its border: the file also holds Alabama test data from Nominatim, left out here.
const BOUNDS = { west: 9.4, east: 9.7, south: 47.0, north: 47.3 };
const PLACES = ['city', 'town', 'village', 'hamlet'];

export interface OsmAddress {
  number: string; // the first of addr:housenumber's values ("56;58" is 56 and 58)
  numbers: string[];
  street: string | null; // addr:street
  place: string | null; // addr:place (a named area or village instead of a street)
  postcode: string | null;
  city: string | null;
}

export interface OsmObject {
  id: string; // n123, w456, r789
  tags: Record<string, string>;
  lon: number;
  lat: number;
  address: OsmAddress | null;
  street: boolean; // named highway=*
  poi: string | null; // the amenity/shop/tourism value of a named one
  natural: boolean; // named natural=* or waterway=*
  place: boolean; // named place=city/town/village/hamlet
}

export interface OsmTruth {
  /** Municipalities (boundary=administrative, admin_level=8) by name: what "in <town>" covers. */
  municipalities: Map<string, Geometry>;
  objects: OsmObject[];
  addresses: OsmObject[];
  streets: OsmObject[];
  pois: OsmObject[];
  naturals: OsmObject[];
  places: OsmObject[];
}

type Ring = Array<[number, number]>;
export interface Geometry {
  type: string;
  coordinates: unknown;
}

// Whether the object lies in the named municipality's boundary (false when there is none of that name).
// Half of the diameter Nominatim gives a place node without an area (reverse_place_diameter in its
// lib-sql/functions/ranking.sql, by search rank: town 18, village 19, hamlet 20), in degrees of latitude.
const PLACE_NODE_RADIUS_DEG: Record<string, number> = { city: 0.08, town: 0.04, village: 0.02, hamlet: 0.01 };
const METRES_PER_DEGREE = 111_320;

/**
 * The object lies in the town of that name: inside its municipality's boundary, or, for a town that
 * has none (a village within a municipality: Malbun and Steg in Triesenberg), within the radius
 * Nominatim gives a place node of its kind.
 */
export function inTown(truth: OsmTruth, o: OsmObject, name: string): boolean {
  if (truth.municipalities.has(name)) return inMunicipality(truth, o, name);
  return truth.places.some((p) => {
    const radius = PLACE_NODE_RADIUS_DEG[p.tags.place ?? ''];
    return p.tags.name === name && radius !== undefined && distanceM(p, o) <= radius * METRES_PER_DEGREE;
  });
}

function inMunicipality(truth: OsmTruth, o: OsmObject, name: string): boolean {
  const area = truth.municipalities.get(name);
  if (!area || (area.type !== 'Polygon' && area.type !== 'MultiPolygon')) return false;
  return booleanPointInPolygon([o.lon, o.lat], area as Parameters<typeof booleanPointInPolygon>[1]);
}

const length = (a: [number, number], b: [number, number]) =>
  Math.hypot((b[0] - a[0]) * Math.cos((a[1] * Math.PI) / 180), b[1] - a[1]);

// Halfway along the line, measured along it (not its middle vertex).
function alongHalf(line: Ring): [number, number] {
  const total = line.slice(1).reduce((s, p, i) => s + length(line[i], p), 0);
  let left = total / 2;
  for (let i = 1; i < line.length; i++) {
    const d = length(line[i - 1], line[i]);
    if (d >= left && d > 0) {
      const t = left / d;
      return [line[i - 1][0] + t * (line[i][0] - line[i - 1][0]), line[i - 1][1] + t * (line[i][1] - line[i - 1][1])];
    }
    left -= d;
  }
  return line[0];
}

// A ring's vertices relative to its first: products of raw degrees (9.5 x 47.1) cancel to the few
// metres a building spans and lose metres of precision.
const local = (ring: Ring): Ring => ring.map(([x, y]) => [x - ring[0][0], y - ring[0][1]]);

// Twice the signed area of a ring (shoelace), in local coordinates.
const doubleArea = (r: Ring) => r.slice(1).reduce((s, p, i) => s + r[i][0] * p[1] - p[0] * r[i][1], 0);
const ringArea = (ring: Ring) => Math.abs(doubleArea(local(ring)));

// The area-weighted centroid of a ring (the mean of its vertices when it has no area).
function centroid(ring: Ring): [number, number] {
  const r = local(ring);
  const a = doubleArea(r);
  if (Math.abs(a) < 1e-16)
    return [ring.reduce((s, p) => s + p[0], 0) / ring.length, ring.reduce((s, p) => s + p[1], 0) / ring.length];
  let x = 0;
  let y = 0;
  for (let i = 0; i < r.length - 1; i++) {
    const c = r[i][0] * r[i + 1][1] - r[i + 1][0] * r[i][1];
    x += (r[i][0] + r[i + 1][0]) * c;
    y += (r[i][1] + r[i + 1][1]) * c;
  }
  return [ring[0][0] + x / (3 * a), ring[0][1] + y / (3 * a)];
}

function representativePoint(g: Geometry): [number, number] | null {
  switch (g.type) {
    case 'Point':
      return g.coordinates as [number, number];
    case 'LineString':
      return alongHalf(g.coordinates as Ring);
    case 'MultiLineString': {
      const lines = g.coordinates as Ring[];
      return alongHalf(lines.reduce((a, b) => (b.length > a.length ? b : a)));
    }
    case 'Polygon':
      return centroid((g.coordinates as Ring[])[0]);
    case 'MultiPolygon': {
      const outers = (g.coordinates as Ring[][]).map((p) => p[0]);
      return centroid(outers.reduce((a, b) => (ringArea(b) > ringArea(a) ? b : a)));
    }
    default:
      return null;
  }
}

// osmium: keep only objects with the tags the categories read, then export every one as GeoJSON
// (lines for highways and waterways, areas for closed ways and multipolygons that carry these tags).
function exportFeatures(pbf: string): Array<{ geometry: Geometry; properties: Record<string, string | number> }> {
  const dir = mkdtempSync(join(tmpdir(), 'lis-osm-truth-'));
  try {
    const filtered = join(dir, 'filtered.osm.pbf');
    const tags = ['addr:housenumber', 'highway', 'amenity', 'shop', 'tourism', 'natural', 'waterway', 'place'];
    tags.push('r/boundary=administrative');
    execFileSync('osmium', ['tags-filter', '--no-progress', '-o', filtered, pbf, ...tags]);
    const config = join(dir, 'export.json');
    writeFileSync(
      config,
      JSON.stringify({
        attributes: { type: true, id: true },
        linear_tags: ['highway', 'waterway', 'natural'],
        area_tags: [
          'building',
          'addr:housenumber',
          'amenity',
          'shop',
          'tourism',
          'place',
          'natural',
          'waterway',
          'boundary',
        ],
      }),
    );
    const out = execFileSync(
      'osmium',
      [
        'export',
        '--no-progress',
        '-c',
        config,
        '-f',
        'geojsonseq',
        '--format-option=print_record_separator=false',
        filtered,
      ],
      { maxBuffer: 512 * 1024 * 1024 },
    );
    return out
      .toString('utf8')
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map((l) => JSON.parse(l));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// OSM separates several values of one tag with ";" (some mappers with ",").
function numbers(tag: string): { number: string; numbers: string[] } {
  const all = tag
    .split(/[;,]/)
    .map((n) => n.trim())
    .filter(Boolean);
  return { number: all[0] ?? tag, numbers: all.length > 0 ? all : [tag] };
}

const PREFIX: Record<string, string> = { node: 'n', way: 'w', relation: 'r' };

export function readOsmTruth(pbf: string = OSM_FIXTURE): OsmTruth {
  const objects: OsmObject[] = [];
  const municipalities = new Map<string, Geometry>();
  for (const f of exportFeatures(pbf)) {
    const p = f.properties;
    if (p.boundary === 'administrative' && String(p.admin_level) === '8' && p.name) {
      municipalities.set(String(p.name), f.geometry);
      continue;
    }
    const point = representativePoint(f.geometry);
    if (!point) continue;
    const [lon, lat] = point;
    if (lon < BOUNDS.west || lon > BOUNDS.east || lat < BOUNDS.south || lat > BOUNDS.north) continue;
    const { '@type': type, '@id': osmId, ...rest } = f.properties;
    const tags = Object.fromEntries(Object.entries(rest).map(([k, v]) => [k, String(v)]));
    const t = (k: string) => tags[k]?.trim() || null;
    const name = t('name');
    const number = t('addr:housenumber');
    const street = t('addr:street');
    const addrPlace = t('addr:place');
    const o: OsmObject = {
      id: `${PREFIX[type as string]}${osmId}`,
      tags,
      lon,
      lat,
      address:
        number && (street || addrPlace)
          ? { ...numbers(number), street, place: addrPlace, postcode: t('addr:postcode'), city: t('addr:city') }
          : null,
      street: !!name && !!t('highway'),
      // "yes" says there is one, not what it is: no one asks for "yes in Vaduz".
      poi: name ? ([t('amenity'), t('shop'), t('tourism')].find((v) => v && v !== 'yes') ?? null) : null,
      natural: !!name && !!(t('natural') || t('waterway')),
      place: !!name && PLACES.includes(t('place') ?? ''),
    };
    if (o.address || o.street || o.poi || o.natural || o.place) objects.push(o);
  }
  return {
    municipalities,
    objects,
    addresses: objects.filter((o) => o.address),
    streets: objects.filter((o) => o.street),
    pois: objects.filter((o) => o.poi),
    naturals: objects.filter((o) => o.natural),
    places: objects.filter((o) => o.place),
  };
}

/** The words of a text, without case or punctuation, padded with spaces (so phrases match as whole words). */
export const textWords = (s: string) =>
  ` ${s
    .toLowerCase()
    .normalize('NFC')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim()} `;
/** `phrase` stands in `text` as whole words, case aside (an address read as a person reads it). */
export const hasWords = (text: string, phrase: string) => textWords(text).includes(textWords(phrase));
