import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { TestingModule } from '@nestjs/testing';
import { Client } from 'pg';
import { PlaceImportService } from '../../src/places/place-import.service';
import { placeFeature } from '../helpers/place-files';
import { placeImporterTools, startPlaceImporter } from '../helpers/place-importer';

describe('places import: GeoJSON and dry runs', () => {
  let moduleRef: TestingModule;
  let importer: PlaceImportService;
  let db: Client;
  const SOURCES = ['osm-test', 'oa-test', 'geojson-test', 'ndjson-test', 'dry-test'];
  const { dir, importFile, rows, bySourceId, removeFiles } = placeImporterTools(() => ({ importer, db }));

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

  it('imports GeoJSON places of every kind, any geometry, with documented properties', async () => {
    const path = join(dir, 'places.geojson');
    const features = [
      placeFeature(
        {
          kind: 'locality',
          name: 'Springfield',
          region: 'Illinois',
          region_code: 'US-IL',
          country_code: 'us',
          population: 114394,
          id: 'gn-1',
        },
        [-89.65, 39.8],
      ),
      placeFeature(
        {
          kind: 'street',
          name: 'Main Street',
          postcode: '62701',
          locality: 'Springfield',
          region_code: 'US-IL',
          id: 'st-1',
        },
        [
          [-89.65, 39.78],
          [-89.651, 39.781],
          [-89.652, 39.782],
        ],
        'LineString',
      ),
      placeFeature(
        {
          kind: 'address',
          housenumber: 9,
          street: 'Elm Street',
          locality: 'Springfield',
          country_code: 'US',
          alt_names: ['Old Mill', 'The Mill'],
          importance: 0.5,
          id: 42,
        },
        [-89.66, 39.79],
      ),
      placeFeature({ kind: 'city', name: 'Nowhere' }),
      placeFeature({ kind: 'locality', name: 'Up North' }, [10, 91]),
      placeFeature({ kind: 'poi' }),
      placeFeature({ kind: 'region', name: 'Illinois', region_code: 'Illinois' }),
      { type: 'Feature', geometry: null, properties: { kind: 'locality', name: 'Lost' } },
    ];
    writeFileSync(path, JSON.stringify({ type: 'FeatureCollection', features }));
    const rejected: unknown[] = [];
    const summary = await importFile(path, 'geojson', {
      source: 'geojson-test',
      onRejection: (r) => void rejected.push(r),
    });
    expect(summary).toMatchObject({ read: 8, inserted: 3, rejected: 5 });
    expect(rejected).toEqual([
      {
        position: 3,
        field: 'kind',
        reason: 'is required and must be one of country, region, locality, postcode, street, address, poi',
      },
      { position: 4, field: 'geometry.coordinates', reason: 'latitude must be between -90 and 90' },
      { position: 5, field: 'name', reason: 'is required for a poi' },
      { position: 6, field: 'region_code', reason: 'must be an ISO 3166 code like "US-CA", got "Illinois"' },
      { position: 7, field: 'geometry', reason: 'must be a GeoJSON geometry with [lon, lat] coordinates' },
    ]);
    const places = await bySourceId('geojson-test');
    expect(places.get('gn-1')).toMatchObject({
      label: 'Springfield, Illinois, United States',
      country_code: 'US',
      population: '114394',
    });
    expect(places.get('gn-1')!.importance).toBeCloseTo(Math.log10(114395) / 7.5, 10);
    expect(places.get('st-1')).toMatchObject({
      label: 'Main Street, Springfield, IL 62701',
      country_code: 'US',
      lon: expect.closeTo(-89.651, 6), // halfway along its line
      lat: expect.closeTo(39.781, 6),
    });
    expect(places.get('42')).toMatchObject({
      name: 'Elm Street 9',
      label: '9 Elm Street, Springfield',
      alt_names: 'Old Mill | The Mill',
      importance: 0.5,
    });
  });

  it('reads one Feature per line, with line numbers', async () => {
    const path = join(dir, 'places.ndjson');
    writeFileSync(
      path,
      [
        JSON.stringify(placeFeature({ kind: 'postcode', postcode: '9490', locality: 'Vaduz', country_code: 'LI' })),
        '',
        '{oops',
      ].join('\n'),
    );
    const rejected: unknown[] = [];
    const summary = await importFile(path, 'geojson', {
      source: 'ndjson-test',
      onRejection: (r) => void rejected.push(r),
    });
    expect(summary).toMatchObject({ read: 2, inserted: 1, rejected: 1 });
    expect(rejected).toEqual([{ position: 3, field: '(record)', reason: 'malformed JSON' }]);
    expect((await rows('ndjson-test')).map((r) => [r.kind, r.name, r.label])).toEqual([
      ['postcode', '9490', '9490 Vaduz'],
    ]);
  });

  it('a dry run counts what it would do and writes nothing', async () => {
    const path = join(dir, 'dry.ndjson');
    writeFileSync(path, JSON.stringify(placeFeature({ kind: 'locality', name: 'Dryville', country_code: 'LI' })));
    const summary = await importFile(path, 'geojson', { source: 'dry-test', dryRun: true });
    expect(summary).toMatchObject({ read: 1, inserted: 1, dryRun: true });
    expect(await rows('dry-test')).toEqual([]);
  });
});
