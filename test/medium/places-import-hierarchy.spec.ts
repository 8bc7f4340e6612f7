import { join } from 'node:path';
import { TestingModule } from '@nestjs/testing';
import { Client } from 'pg';
import { loadOsmAreas } from '../../src/places/formats/osm-areas';
import { PlaceAreaSession, placeLookupParams, placeLookupSql } from '../../src/places/place-area-session';
import { PlaceImportService } from '../../src/places/place-import.service';
import { PlaceRepository } from '../../src/places/place.repository';
import { OsmNode, OsmWay, writeOsmPbf } from '../helpers/place-files';
import { placeImporterTools, startPlaceImporter } from '../helpers/place-importer';

// A country with two municipalities, a postal code area, a suburb area and a hamlet node (closed ways,
// as boundaries and areas are drawn; invented, Liechtenstein-like), and places that name none of them.
let nextNode = 1000;
function square(id: number, box: [number, number, number, number], tags: Record<string, string>) {
  const [w, s, e, n] = box;
  const corners = [
    [w, s],
    [e, s],
    [e, n],
    [w, n],
  ].map(([lon, lat]) => ({ id: nextNode++, lon, lat }));
  return { nodes: corners, way: { id, nodes: [...corners.map((c) => c.id), corners[0].id], tags } };
}
const AREAS = [
  square(900, [9.4, 47.0, 9.7, 47.3], {
    boundary: 'administrative',
    admin_level: '2',
    name: 'Liechtenstein',
    'ISO3166-1': 'LI',
  }),
  square(901, [9.5, 47.12, 9.54, 47.16], { boundary: 'administrative', admin_level: '8', name: 'Vaduz' }),
  square(902, [9.54, 47.1, 9.6, 47.16], { boundary: 'administrative', admin_level: '8', name: 'Triesenberg' }),
  square(903, [9.54, 47.1, 9.6, 47.16], { boundary: 'postal_code', postal_code: '9497' }),
  square(904, [9.52, 47.13, 9.53, 47.14], { place: 'suburb', name: 'Ebenholz' }),
];
const NODES: OsmNode[] = [
  {
    id: 1,
    lon: 9.521,
    lat: 47.131,
    tags: { 'addr:housenumber': '35', 'addr:street': 'Herrengasse', 'addr:postcode': '9490' },
  },
  { id: 2, lon: 9.5212, lat: 47.1312, tags: { 'addr:housenumber': '37', 'addr:street': 'Herrengasse' } },
  { id: 3, lon: 9.561, lat: 47.141, tags: { 'addr:housenumber': '5', 'addr:street': 'Steinort' } },
  { id: 4, lon: 9.5311, lat: 47.1512, tags: { 'addr:housenumber': '8' } }, // beside Landstrasse
  { id: 5, lon: 9.5605, lat: 47.1405, tags: { 'addr:housenumber': '3' } }, // no street near: the hamlet
  { id: 6, lon: 9.5603, lat: 47.1398, tags: { 'addr:housenumber': '6', 'addr:place': 'Silum' } },
  { id: 7, lon: 9.56, lat: 47.14, tags: { place: 'hamlet', name: 'Silum' } },
  { id: 8, lon: 9.5215, lat: 47.1395, tags: { place: 'town', name: 'Vaduz' } },
  { id: 9, lon: 9.58, lat: 47.12, tags: { natural: 'peak', name: 'Kuhgrat' } },
  { id: 21, lon: 9.52, lat: 47.13 },
  { id: 22, lon: 9.5211, lat: 47.1311 },
  { id: 23, lon: 9.522, lat: 47.132 },
  { id: 24, lon: 9.53, lat: 47.15 },
  { id: 25, lon: 9.531, lat: 47.151 },
  { id: 26, lon: 9.532, lat: 47.152 },
  { id: 27, lon: 9.57, lat: 47.11 },
  { id: 28, lon: 9.575, lat: 47.115 },
  ...AREAS.flatMap((a) => a.nodes),
];
const WAYS: OsmWay[] = [
  { id: 200, nodes: [21, 22, 23], tags: { highway: 'residential', name: 'Herrengasse' } },
  { id: 201, nodes: [24, 25, 26], tags: { highway: 'primary', name: 'Landstrasse' } },
  { id: 202, nodes: [27, 28], tags: { waterway: 'stream', name: 'Samina' } },
  ...AREAS.map((a) => a.way),
];

describe('places import: where OpenStreetMap places lie (boundaries, places, streets)', () => {
  let moduleRef: TestingModule;
  let importer: PlaceImportService;
  let db: Client;
  const { dir, importFile, bySourceId, removeFiles } = placeImporterTools(() => ({ importer, db }));
  const pbf = join(dir, 'gemeinden.osm.pbf');
  const importWithAreas = async () => {
    const areas = await moduleRef.get(PlaceRepository).openAreaSession();
    try {
      return await importFile(pbf, 'osm', { source: 'osm-hierarchy-test' }, areas);
    } finally {
      await areas.close();
    }
  };

  beforeAll(async () => {
    ({ moduleRef, importer, db } = await startPlaceImporter());
    writeOsmPbf(pbf, NODES, WAYS);
  });

  afterAll(async () => {
    await db.query("DELETE FROM places WHERE source = 'osm-hierarchy-test'");
    await db.end();
    await moduleRef.close();
    removeFiles();
  });

  it('gives every place its country, municipality, postcode, district and hierarchy from the file, without --country', async () => {
    const summary = await importWithAreas();
    expect(summary).toMatchObject({ rejected: 0, outcome: 'complete' });
    const places = await bySourceId('osm-hierarchy-test');
    const got = Object.fromEntries(
      [...places].map(([id, r]) => [
        id,
        [r.kind, r.label, r.country_code, r.municipality, r.district, JSON.stringify(r.hierarchy)].join(' | '),
      ]),
    );
    expect(got).toEqual({
      // In the suburb's area; the town's node 950 m away (its reach 4.5 km).
      n1: 'address | Herrengasse 35, Ebenholz, 9490 Vaduz | LI | Vaduz | Ebenholz | {"city":"Vaduz","suburb":"Ebenholz"}',
      n2: 'address | Herrengasse 37, Ebenholz, 9490 Vaduz | LI | Vaduz | Ebenholz | {"city":"Vaduz","suburb":"Ebenholz"}', // postcode: same street
      // Postal area; the hamlet's node 140 m away; the town's node is in another municipality.
      n3: 'address | Steinort 5, Silum, 9497 Triesenberg | LI | Triesenberg | Silum | {"hamlet":"Silum"}',
      // No addr:street: the street beside it; no postcode near: the one all of Vaduz has.
      n4: 'address | Landstrasse 8, 9490 Vaduz | LI | Vaduz |  | {"city":"Vaduz"}',
      n5: 'address | Silum 3, 9497 Triesenberg | LI | Triesenberg |  | {"hamlet":"Silum"}', // no street near: its hamlet
      n6: 'address | Silum 6, 9497 Triesenberg | LI | Triesenberg |  | {"hamlet":"Silum"}',
      n7: 'locality | Silum, Liechtenstein | LI | Triesenberg |  | null',
      n8: 'locality | Vaduz, Liechtenstein | LI |  |  | null',
      n9: 'poi | Kuhgrat, 9497 Triesenberg | LI | Triesenberg |  | null', // Silum is 2.7 km away (its reach 1.1 km)
      w200: 'street | Herrengasse, Ebenholz, 9490 Vaduz | LI | Vaduz | Ebenholz | {"city":"Vaduz","suburb":"Ebenholz"}',
      w201: 'street | Landstrasse, 9490 Vaduz | LI | Vaduz |  | {"city":"Vaduz"}',
      w202: 'poi | Samina, 9497 Triesenberg | LI | Triesenberg |  | null',
      w904: 'locality | Ebenholz, Liechtenstein | LI | Vaduz |  | null',
    });
  });

  it('finds a place by any part of where it lies: postcode, district, municipality', async () => {
    const { rows } = await db.query<{ word: string; ids: string[] }>(
      `SELECT w AS word, array_agg(p.source_id ORDER BY p.source_id) AS ids
       FROM unnest(ARRAY['ebenholz', '9497', 'silum']) w
       JOIN places p ON p.search_tsv @@ to_tsquery('simple', w)
       WHERE p.source = 'osm-hierarchy-test' AND p.kind = 'address' GROUP BY w ORDER BY w`,
    );
    expect(rows).toEqual([
      { word: '9497', ids: ['n3', 'n5', 'n6'] },
      { word: 'ebenholz', ids: ['n1', 'n2'] },
      { word: 'silum', ids: ['n3', 'n5', 'n6'] },
    ]);
  });

  it('re-imported unchanged, writes nothing', async () => {
    const summary = await importWithAreas();
    expect(summary).toMatchObject({ inserted: 0, updated: 0, rejected: 0 });
  });

  it('looks areas up through their GiST indexes', async () => {
    const client = new Client({ connectionString: process.env.DATABASE_URL });
    await client.connect();
    const session = await PlaceAreaSession.open(client, 'a1b2c3d4e5f6');
    try {
      await loadOsmAreas(pbf, session);
      await client.query('SET enable_seqscan = off'); // the table is tiny: ask whether the indexes can serve
      const { rows } = await client.query<{ 'QUERY PLAN': string }>(
        `EXPLAIN ${placeLookupSql('place_areas_staging_a1b2c3d4e5f6')}`,
        placeLookupParams([[9.521, 47.131]]),
      );
      const plan = rows.map((r) => r['QUERY PLAN']).join('\n');
      expect(plan).not.toMatch(/Seq Scan/);
      // The hierarchy's areas and nodes (and the municipality of each node) as well.
      expect(plan.match(/Index Scan|Bitmap Index Scan/g)!.length).toBeGreaterThanOrEqual(11);
    } finally {
      await session.close();
    }
  });
});
