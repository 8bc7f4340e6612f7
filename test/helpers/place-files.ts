import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';

type Tags = Record<string, string>;
const xmlEscape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');
const tagXml = (tags: Tags) =>
  Object.entries(tags)
    .map(([k, v]) => `<tag k="${xmlEscape(k)}" v="${xmlEscape(v)}"/>`)
    .join('');

export interface OsmNode {
  id: number;
  lon: number;
  lat: number;
  tags?: Tags;
}

export interface OsmWay {
  id: number;
  nodes: number[];
  tags: Tags;
}

// A small OpenStreetMap file as OSM XML.
export function osmXml(nodes: OsmNode[], ways: OsmWay[]): string {
  const attrs = 'version="1" timestamp="2024-01-01T00:00:00Z" changeset="1" uid="1" user="test"';
  return [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    `<osm version="0.6" generator="lis-test">`,
    ...nodes.map((n) => `<node id="${n.id}" ${attrs} lat="${n.lat}" lon="${n.lon}">${tagXml(n.tags ?? {})}</node>`),
    ...ways.map(
      (w) => `<way id="${w.id}" ${attrs}>${w.nodes.map((ref) => `<nd ref="${ref}"/>`).join('')}${tagXml(w.tags)}</way>`,
    ),
    `</osm>`,
  ].join('\n');
}

// Writes OSM XML and converts it to PBF with osmium, as real extracts come.
export function writeOsmPbf(path: string, nodes: OsmNode[], ways: OsmWay[]): string {
  const xml = path.replace(/\.osm\.pbf$/, '.osm');
  writeFileSync(xml, osmXml(nodes, ways));
  execFileSync('osmium', ['cat', xml, '-o', path, '--overwrite']);
  return path;
}

// A village at the foot of the Alps (Liechtenstein-like, invented): addresses as nodes and as a
// building, streets, a town with a population and a village without one, a restaurant that is also an
// address, and objects that are no place.
export function villageNodes(options: { firstPostcode?: string } = {}): OsmNode[] {
  const addr = (housenumber: string, street: string, postcode?: string, city?: string): Tags => ({
    'addr:housenumber': housenumber,
    'addr:street': street,
    ...(postcode ? { 'addr:postcode': postcode } : {}),
    ...(city ? { 'addr:city': city } : {}),
  });
  return [
    { id: 1, lon: 9.521, lat: 47.141, tags: addr('35', 'Herrengasse', options.firstPostcode ?? '9490', 'Vaduz') },
    // No postcode or city of its own: it takes those of number 35, on the same street nearby.
    { id: 2, lon: 9.5213, lat: 47.1412, tags: addr('37', 'Herrengasse') },
    // addr:place instead of a street.
    {
      id: 3,
      lon: 9.55,
      lat: 47.16,
      tags: { 'addr:housenumber': '6', 'addr:place': 'Silum', 'addr:postcode': '9497', 'addr:city': 'Triesenberg' },
    },
    {
      id: 4,
      lon: 9.5215,
      lat: 47.1415,
      tags: { place: 'town', name: 'Vaduz', population: '5229', 'name:en': 'Vaduz' },
    },
    { id: 5, lon: 9.5452, lat: 47.1858, tags: { place: 'village', name: 'Planken' } },
    {
      id: 6,
      lon: 9.5212,
      lat: 47.1409,
      tags: { amenity: 'restaurant', name: 'Gasthof Löwen', ...addr('2', 'Herrengasse', '9490', 'Vaduz') },
    },
    { id: 7, lon: 9.522, lat: 47.142, tags: { amenity: 'bench' } },
    { id: 8, lon: 9.49, lat: 47.17, tags: { ...addr('10', 'Bahnhofstrasse', '9470', 'Buchs'), 'addr:country': 'CH' } },
    { id: 9, lon: 9.56, lat: 47.17, tags: { natural: 'peak', name: 'Kuhgrat' } },
    // Untagged nodes of the ways below.
    { id: 11, lon: 9.522, lat: 47.142 },
    { id: 12, lon: 9.5224, lat: 47.142 },
    { id: 13, lon: 9.5224, lat: 47.1424 },
    { id: 14, lon: 9.522, lat: 47.1424 },
    { id: 21, lon: 9.52, lat: 47.14 },
    { id: 22, lon: 9.5211, lat: 47.1411 },
    { id: 23, lon: 9.522, lat: 47.142 },
    { id: 24, lon: 9.53, lat: 47.15 },
    { id: 25, lon: 9.531, lat: 47.151 },
    { id: 26, lon: 9.532, lat: 47.152 },
  ];
}

export const VILLAGE_WAYS: OsmWay[] = [
  {
    id: 100,
    nodes: [11, 12, 13, 14, 11],
    tags: {
      building: 'yes',
      'addr:housenumber': '12',
      'addr:street': 'Äulestrasse',
      'addr:postcode': '9490',
      'addr:city': 'Vaduz',
    },
  },
  { id: 200, nodes: [21, 22, 23], tags: { highway: 'residential', name: 'Herrengasse' } },
  { id: 201, nodes: [24, 25, 26], tags: { highway: 'primary', name: 'Landstrasse' } },
  { id: 202, nodes: [24, 25], tags: { highway: 'service' } },
];

export const OPENADDRESSES_HEADER = 'LON,LAT,NUMBER,STREET,UNIT,CITY,DISTRICT,REGION,POSTCODE,ID,HASH';

export function placeFeature(
  properties: Record<string, unknown>,
  coordinates: unknown = [9.52, 47.14],
  type = 'Point',
): object {
  return { type: 'Feature', geometry: { type, coordinates }, properties };
}
