import { join } from 'node:path';
import { Test, TestingModule } from '@nestjs/testing';
import { Client } from 'pg';
import { DatabaseModule } from '../../src/database/database.module';
import { ImageryModule } from '../../src/imagery/imagery.module';
import { ImageryPlaceLinker } from '../../src/imagery/address-recovery/imagery-place-linker.service';
import { PlaceImportService } from '../../src/places/place-import.service';
import { writeOsmPbf } from '../helpers/place-files';
import { placeImporterTools, startPlaceImporter } from '../helpers/place-importer';
import { testConfig } from '../helpers/test-app';

// A street 1.5 km long, drawn as one way: its place stands at its middle vertex, 730 m from the image
// below, which is 22 m from the street's line.
const NODES = [
  { id: 1, lon: 9.5, lat: 47.14 },
  { id: 2, lon: 9.51, lat: 47.14 },
  { id: 3, lon: 9.52, lat: 47.14 },
  { id: 4, lon: 9.515, lat: 47.145, tags: { place: 'town', name: 'Vaduz' } },
];
const WAYS = [{ id: 10, nodes: [1, 2, 3], tags: { highway: 'primary', name: 'Landstrasse' } }];
const IMAGE = '7d4bd3c2-1f1e-4a55-9b0c-3c1f4f3c0a11';

describe('streets as lines: imagery near any part of a street takes its name', () => {
  let moduleRef: TestingModule;
  let linking: TestingModule;
  let importer: PlaceImportService;
  let db: Client;
  const { dir, importFile, rows, removeFiles } = placeImporterTools(() => ({ importer, db }));

  beforeAll(async () => {
    ({ moduleRef, importer, db } = await startPlaceImporter());
    linking = await Test.createTestingModule({
      imports: [DatabaseModule.forRoot(testConfig()), ImageryModule],
    }).compile();
    await linking.init();
  });

  afterAll(async () => {
    await db.query('DELETE FROM imagery WHERE id = $1', [IMAGE]);
    await db.query("DELETE FROM places WHERE source = 'osm-lines-test'");
    await db.end();
    await linking.close();
    await moduleRef.close();
    removeFiles();
  });

  it('keeps the line of an OpenStreetMap street and recovers its name 22 m from the line', async () => {
    const pbf = writeOsmPbf(join(dir, 'street.osm.pbf'), NODES, WAYS);
    await importFile(pbf, 'osm', { source: 'osm-lines-test', countryCode: 'LI' });
    const { rows: lines } = await db.query(
      "SELECT ST_AsText(line) AS line FROM places WHERE source = 'osm-lines-test' AND kind = 'street'",
    );
    expect(lines).toEqual([{ line: 'LINESTRING(9.5 47.14,9.51 47.14,9.52 47.14)' }]);
    expect((await rows('osm-lines-test')).map((r) => r.label)).toContain('Landstrasse, Vaduz');

    await db.query(
      `INSERT INTO imagery (id, address, address_origin, captured_at, heading, image_url, location)
       VALUES ($1, 'stand-in', 'locality', '2020-05-01', 90, 'a.jpg', ST_SetSRID(ST_MakePoint(9.5195, 47.1402), 4326))`,
      [IMAGE],
    );
    await linking.get(ImageryPlaceLinker).linkRecords([IMAGE]);
    const { rows: image } = await db.query('SELECT address, address_origin FROM imagery WHERE id = $1', [IMAGE]);
    expect(image).toEqual([{ address: 'Landstrasse, Vaduz', address_origin: 'street' }]);
  });
});
