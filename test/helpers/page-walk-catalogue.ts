import { insertPlaces, linkRecord } from './places';
import { LOCALITIES } from './place-search-gazetteer';
import { feature, importFixture } from './test-app';

// A generated catalogue for walking search pages: sparse streets over Liechtenstein, a dense block
// (an image every few metres, as real sequences are), and places whose records a query pins (more
// than are pinned, and their name's words elsewhere apart). Seeded, so every run builds the same one.

export const DENSE_CENTRE = { lat: 47.1391, lon: 9.5209 };
export const SPARSE_BOX = { west: 9.45, south: 47.05, east: 9.6, north: 47.2 };
const STREETS = ['Herrengasse', 'Landstrasse', 'Kirchstrasse', 'Aeulestrasse', 'Feldweg', 'Zollstrasse', 'Marktgasse'];
const TOWNS = ['Vaduz', 'Schaan', 'Triesen', 'Balzers', 'Eschen'];

export interface WalkCatalogue {
  /** Every record's address, for exact-address searches. */
  addresses: string[];
}

// mulberry32: a small seeded generator, so the catalogue is the same on every run.
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pick = <T>(rng: () => number, xs: T[]) => xs[Math.floor(rng() * xs.length)];

export async function buildWalkCatalogue(sizes = { sparse: 1_200, dense: 1_200 }): Promise<WalkCatalogue> {
  const rng = seeded(36);
  await insertPlaces(LOCALITIES);
  const sparse = Array.from({ length: sizes.sparse }, (_, n) => {
    const lon = SPARSE_BOX.west + rng() * (SPARSE_BOX.east - SPARSE_BOX.west);
    const lat = SPARSE_BOX.south + rng() * (SPARSE_BOX.north - SPARSE_BOX.south);
    return feature(`${1 + (n % 97)} ${pick(rng, STREETS)}, ${pick(rng, TOWNS)}`, {}, [lon, lat]);
  });
  // Uniform in a disc of 150 m: a degree of latitude is 111.32 km.
  const dense = Array.from({ length: sizes.dense }, (_, n) => {
    const r = 150 * Math.sqrt(rng());
    const a = 2 * Math.PI * rng();
    const lon = DENSE_CENTRE.lon + (r * Math.cos(a)) / (111_320 * Math.cos((DENSE_CENTRE.lat * Math.PI) / 180));
    const lat = DENSE_CENTRE.lat + (r * Math.sin(a)) / 111_320;
    return feature(`${1 + (n % 60)} Staedtle, Vaduz`, { captured_at: `20${10 + (n % 12)}-06-05` }, [lon, lat]);
  });
  const place = (key: string) => LOCALITIES.find((p) => p.key === key)!;
  const sf = place('sf-us');
  const sfRecords = Array.from({ length: 230 }, (_, n) =>
    feature(`${n + 1} Market Street, San Francisco`, {}, [sf.lon + n * 1e-5, sf.lat]),
  );
  const apart = [
    ...Array.from({ length: 40 }, (_, n) =>
      feature(`${n + 1} San Pablo Avenue, Oakland`, {}, [-122.27, 37.8 + n * 1e-5]),
    ),
    ...Array.from({ length: 40 }, (_, n) =>
      feature(`${n + 1} Francisco Street, Berkeley`, {}, [-122.28, 37.87 + n * 1e-5]),
    ),
  ];
  const london = place('london-gb');
  const londonRecords = Array.from({ length: 60 }, (_, n) =>
    feature(`${n + 1} Baker Street, London`, {}, [london.lon + n * 1e-5, london.lat]),
  );
  const croydon = Array.from({ length: 30 }, (_, n) =>
    feature(`${n + 1} London Road, Croydon`, {}, [london.lon, london.lat - 0.1 - n * 1e-5]),
  );
  // A place all of whose matches it pins, one of its name's words elsewhere too: "New London" is
  // estimated as its rarer word (90 addresses hold "new"), 50 match.
  const newLondon = place('new-london');
  const newLondonRecords = Array.from({ length: 50 }, (_, n) =>
    feature(`${n + 1} Bank Street, New London`, {}, [newLondon.lon + n * 1e-5, newLondon.lat]),
  );
  const newElsewhere = Array.from({ length: 40 }, (_, n) =>
    feature(`${n + 1} New Street, Schaan`, {}, [9.51 + n * 1e-5, 47.165]),
  );
  const all = [
    ...[...sparse, ...dense, ...sfRecords, ...apart, ...londonRecords, ...croydon],
    ...[...newLondonRecords, ...newElsewhere],
  ];
  const summary = await importFixture(all);
  if (summary.rejected !== 0) throw new Error(`catalogue: ${summary.rejected} records rejected`);
  const ids = (fs: Array<{ id: string }>) => fs.map((f) => f.id);
  await linkRecord(ids([...sparse, ...dense]), { locality: 'vaduz' });
  await linkRecord(ids(sfRecords), { locality: 'sf-us' });
  await linkRecord(ids(londonRecords), { locality: 'london-gb' });
  await linkRecord(ids(croydon), { locality: 'croydon' });
  await linkRecord(ids(newLondonRecords), { locality: 'new-london' });
  return { addresses: all.map((f) => f.properties.address) };
}
