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
// An odd line from 1 to 13 along Landstrasse (the way names the street, its nodes only numbers), with
// number 5 mapped on it, 400 m east of Feldstrasse.
const ODD_NODES = [
  { id: 11, lon: 9.51, lat: 47.17, tags: { 'addr:housenumber': '1' } },
  { id: 12, lon: 9.511, lat: 47.17, tags: { 'addr:housenumber': '5' } },
  { id: 13, lon: 9.515, lat: 47.17, tags: { 'addr:housenumber': '13' } },
];
const ODD_WAYS = [{ id: 31, nodes: [11, 12, 13], tags: { 'addr:interpolation': 'odd', 'addr:street': 'Landstrasse' } }];

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

  it("splits a line at its numbered nodes and takes the way's street where the nodes name none", async () => {
    const pbf = writeOsmPbf(join(dir, 'odd.osm.pbf'), ODD_NODES, ODD_WAYS);
    const summary = await importFile(pbf, 'osm', { source: 'osm-interpolation-test', countryCode: 'LI' });
    expect(summary).toMatchObject({ rejected: 0 });
    const got = (await rows('osm-interpolation-test'))
      .filter((r) => r.source_id.startsWith('w31:'))
      .map((r) => [r.source_id, r.label, Number(r.lon.toFixed(4))]);
    // 3 halfway between 1 and 5 (the first piece), 7, 9 and 11 at a quarter, half and three quarters of the second.
    expect(got).toEqual([
      ['w31:11', 'Landstrasse 11', 9.514],
      ['w31:3', 'Landstrasse 3', 9.5105],
      ['w31:7', 'Landstrasse 7', 9.512],
      ['w31:9', 'Landstrasse 9', 9.513],
    ]);
  });
});
