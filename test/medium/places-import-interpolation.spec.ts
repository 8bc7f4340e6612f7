import { join } from 'node:path';
import { TestingModule } from '@nestjs/testing';
import { Client } from 'pg';
import { PlaceImportService } from '../../src/places/place-import.service';
import { writeOsmPbf } from '../helpers/place-files';
import { placeImporterTools, startPlaceImporter } from '../helpers/place-importer';

// Numbers 2 and 10 of a street as nodes, and an even interpolation line between them that bends.
const house = (n: string) => ({ 'addr:housenumber': n, 'addr:street': 'Feldstrasse', 'addr:postcode': '9494' });
const NODES = [
  { id: 1, lon: 9.5, lat: 47.17, tags: house('2') },
  { id: 2, lon: 9.502, lat: 47.17 },
  { id: 3, lon: 9.502, lat: 47.172, tags: house('10') },
];
const WAYS = [{ id: 30, nodes: [1, 2, 3], tags: { 'addr:interpolation': 'even' } }];

describe('places import: addr:interpolation', () => {
  let moduleRef: TestingModule;
  let importer: PlaceImportService;
  let db: Client;
  const { dir, importFile, rows, removeFiles } = placeImporterTools(() => ({ importer, db }));

  beforeAll(async () => {
    ({ moduleRef, importer, db } = await startPlaceImporter());
  });

  afterAll(async () => {
    await db.query("DELETE FROM places WHERE source = 'osm-interpolation-test'");
    await db.end();
    await moduleRef.close();
    removeFiles();
  });

  it('makes the numbers between the ends, each at its share of the line', async () => {
    const pbf = writeOsmPbf(join(dir, 'interpolation.osm.pbf'), NODES, WAYS);
    const summary = await importFile(pbf, 'osm', { source: 'osm-interpolation-test', countryCode: 'LI' });
    expect(summary).toMatchObject({ inserted: 5, rejected: 0 });
    const got = (await rows('osm-interpolation-test')).map((r) => [
      r.source_id,
      r.label,
      Number(r.lon.toFixed(5)),
      Number(r.lat.toFixed(5)),
    ]);
    // The first leg runs east (148 m at this latitude), the second north (222 m): 4 is a quarter of
    // the way along (on the first leg), 6 half way and 8 three quarters (on the second).
    expect(got).toEqual([
      ['n1', 'Feldstrasse 2, 9494', 9.5, 47.17],
      ['n3', 'Feldstrasse 10, 9494', 9.502, 47.172],
      ['w30:4', 'Feldstrasse 4, 9494', expect.closeTo(9.50124, 4), 47.17],
      ['w30:6', 'Feldstrasse 6, 9494', 9.502, expect.closeTo(47.17032, 4)],
      ['w30:8', 'Feldstrasse 8, 9494', 9.502, expect.closeTo(47.17116, 4)],
    ]);
  });
});
