import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { TestingModule } from '@nestjs/testing';
import { Client } from 'pg';
import { PlaceImportService } from '../../src/places/place-import.service';
import { placeId } from '../../src/places/place-record';
import { importanceFromPopulation } from '../../src/places/gazetteer/place-importance';
import { OPENADDRESSES_HEADER, VILLAGE_WAYS, villageNodes, writeOsmPbf } from '../helpers/place-files';
import { placeImporterTools, startPlaceImporter } from '../helpers/place-importer';

describe('places import: OpenStreetMap and OpenAddresses', () => {
  let moduleRef: TestingModule;
  let importer: PlaceImportService;
  let db: Client;
  const SOURCES = ['osm-test', 'oa-test', 'geojson-test', 'ndjson-test', 'dry-test'];
  const { dir, importFile, rows, bySourceId, versions, removeFiles } = placeImporterTools(() => ({ importer, db }));

  beforeAll(async () => {
    ({ moduleRef, importer, db } = await startPlaceImporter());
    await db.query('DELETE FROM places WHERE source = ANY($1)', [SOURCES]);
  });

  afterAll(async () => {
    await db.query('DELETE FROM places WHERE source = ANY($1)', [SOURCES]);
    await db.end();
    await moduleRef.close();
    removeFiles();
  });

  describe('an OpenStreetMap extract', () => {
    const pbf = join(dir, 'village.osm.pbf');

    it('becomes addresses, streets, localities and points of interest with their labels', async () => {
      writeOsmPbf(pbf, villageNodes(), VILLAGE_WAYS);
      const summary = await importFile(pbf, 'osm', { source: 'osm-test', countryCode: 'LI' });
      // The bench and the unnamed service road are no places.
      expect(summary).toMatchObject({
        read: 12,
        inserted: 12,
        updated: 0,
        unchanged: 0,
        skipped: 2,
        rejected: 0,
        outcome: 'complete',
      });

      const places = await bySourceId('osm-test');
      const labels = Object.fromEntries([...places].map(([sourceId, r]) => [sourceId, `${r.kind}: ${r.label}`]));
      expect(labels).toEqual({
        n1: 'address: Herrengasse 35, 9490 Vaduz',
        n2: 'address: Herrengasse 37, 9490 Vaduz', // postcode and town from number 35
        n3: 'address: Silum 6, 9497 Triesenberg',
        n4: 'locality: Vaduz, Liechtenstein',
        n5: 'locality: Planken, Liechtenstein',
        n6: 'address: Herrengasse 2, 9490 Vaduz',
        'n6:poi': 'poi: Gasthof Löwen, Herrengasse 2, 9490 Vaduz',
        n8: 'address: Bahnhofstrasse 10, 9470 Buchs',
        n9: 'poi: Kuhgrat', // a named peak
        w100: 'address: Äulestrasse 12, 9490 Vaduz',
        w200: 'street: Herrengasse, 9490 Vaduz', // from the addresses on it
        w201: 'street: Landstrasse, Vaduz', // no address on it: the nearest town
      });
      expect(places.get('n8')!.country_code).toBe('CH'); // addr:country wins over --country
      expect(places.get('n1')).toMatchObject({
        housenumber: '35',
        street: 'Herrengasse',
        postcode: '9490',
        locality: 'Vaduz',
        country_code: 'LI',
      });
      expect(places.get('n1')!.id).toBe(placeId('osm-test', 'n1'));
      expect(places.get('n4')).toMatchObject({ population: '5229', importance: importanceFromPopulation(5229) });
      expect(places.get('n4')!.importance).toBeCloseTo(0.4958, 4);
      expect(places.get('n5')!.importance).toBe(0.3); // a village without population
      // The building stands at its centre of mass, the street halfway along it (not at its middle
      // vertex, 9.5211 47.1411, which is nearer one end).
      expect([places.get('w100')!.lon, places.get('w100')!.lat]).toEqual([
        expect.closeTo(9.5222, 7),
        expect.closeTo(47.1422, 7),
      ]);
      expect([places.get('w200')!.lon, places.get('w200')!.lat]).toEqual([
        expect.closeTo(9.521, 6),
        expect.closeTo(47.141, 6),
      ]);
    });

    it('re-imported unchanged, writes nothing; a changed postcode updates the places that use it', async () => {
      const before = await versions('osm-test');
      const again = await importFile(pbf, 'osm', { source: 'osm-test', countryCode: 'LI' });
      expect(again).toMatchObject({ read: 12, inserted: 0, updated: 0, unchanged: 12, rejected: 0 });
      expect(await versions('osm-test')).toEqual(before); // not even a row version changed

      writeOsmPbf(pbf, villageNodes({ firstPostcode: '9491' }), VILLAGE_WAYS);
      const changed = await importFile(pbf, 'osm', { source: 'osm-test', countryCode: 'LI', batchSize: 4 });
      // Number 35 itself, number 37 and the street, which took their postcode from it.
      expect(changed).toMatchObject({ read: 12, inserted: 0, updated: 3, unchanged: 9 });
      const places = await bySourceId('osm-test');
      expect(['n1', 'n2', 'w200'].map((id) => places.get(id)!.label)).toEqual([
        'Herrengasse 35, 9491 Vaduz',
        'Herrengasse 37, 9491 Vaduz',
        'Herrengasse, 9491 Vaduz',
      ]);
    });

    it('reports a file osmium cannot read as an input error', async () => {
      const broken = join(dir, 'broken.osm.pbf');
      writeFileSync(broken, 'this is no PBF');
      const summary = await importFile(broken, 'osm', { source: 'osm-test' });
      expect(summary.outcome).toBe('input-error');
      expect(summary.inputError).toMatch(/^osmium could not read .*broken\.osm\.pbf: /);
    });
  });

  it('imports OpenAddresses CSV with the country of the file, rejecting bad rows by line and column', async () => {
    const path = join(dir, 'us.csv');
    const rowsText = [
      OPENADDRESSES_HEADER,
      '-89.6501,39.7817,123,Main Street,,Springfield,,IL,62701,,a1b2c3',
      '-89.6502,39.7818,125,Main Street,Apt 2,Springfield,,IL,62701,77,',
      '-89.6503,39.7819,127,Main Street,,Springfield,,IL,62701,,',
      'abc,39.78,129,Main Street,,Springfield,,IL,62701,,h4',
      '-89.65,39.78,,Main Street,,Springfield,,IL,62701,,h5',
      '-89.65,95,131,Main Street,,Springfield,,IL,62701,,h6',
      'a,b',
    ];
    writeFileSync(path, rowsText.join('\n'));
    const rejected: unknown[] = [];
    const summary = await importFile(path, 'openaddresses', {
      source: 'oa-test',
      countryCode: 'US',
      onRejection: (r) => void rejected.push(r),
    });
    expect(summary).toMatchObject({ read: 7, inserted: 3, rejected: 4 });
    expect(rejected).toEqual([
      { position: 5, field: 'LON', reason: 'must be a number, got "abc"' },
      { position: 6, field: 'NUMBER', reason: 'is required for an address' },
      { position: 7, field: 'LAT', reason: 'latitude must be between -90 and 90' },
      { position: 8, field: '(record)', reason: 'has 2 fields; the header has 11' },
    ]);
    const places = await rows('oa-test');
    expect(places.map((r) => [r.kind, r.label, r.region_code, r.country_code])).toEqual([
      ['address', '125 Main Street, Springfield, IL 62701', 'US-IL', 'US'], // source id "77" (ID)
      ['address', '123 Main Street, Springfield, IL 62701', 'US-IL', 'US'], // "a1b2c3" (HASH)
      ['address', '127 Main Street, Springfield, IL 62701', 'US-IL', 'US'], // neither: a hash of the row
    ]);
    expect(places[2].source_id).toMatch(/^row:[0-9a-f]{40}$/);
    expect((await db.query("SELECT DISTINCT region FROM places WHERE source = 'oa-test'")).rows).toEqual([
      { region: 'Illinois' },
    ]);

    const again = await importFile(path, 'openaddresses', { source: 'oa-test', countryCode: 'US' });
    expect(again).toMatchObject({ inserted: 0, updated: 0, unchanged: 3, rejected: 4 });
  });
});
