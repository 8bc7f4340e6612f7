import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { TestingModule } from '@nestjs/testing';
import { Client } from 'pg';
import { PlaceImportService } from '../../src/places/place-import.service';
import { writeOsmPbf } from '../helpers/place-files';
import { placeImporterTools, startPlaceImporter } from '../helpers/place-importer';

// Points of interest keep their category (an OSM tag) through an import, from OpenStreetMap and GeoJSON.
describe('places import: poi categories', () => {
  let moduleRef: TestingModule;
  let importer: PlaceImportService;
  let db: Client;
  const SOURCES = ['osm-categories', 'geojson-categories'];
  const { dir, importFile, versions, removeFiles } = placeImporterTools(() => ({ importer, db }));
  const categories = async (source: string) =>
    Object.fromEntries(
      (
        await db.query<{ source_id: string; kind: string; category: string | null }>(
          'SELECT source_id, kind, category FROM places WHERE source = $1 ORDER BY source_id',
          [source],
        )
      ).rows.map((r) => [r.source_id, `${r.kind} ${r.category}`]),
    );

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

  it('takes the category of an OpenStreetMap poi from its first poi key, and writes nothing on a re-import', async () => {
    const pbf = writeOsmPbf(
      join(dir, 'pois.osm.pbf'),
      [
        { id: 1, lon: 9.52, lat: 47.14, tags: { amenity: 'restaurant', name: 'Gasthof Löwen' } },
        { id: 2, lon: 9.521, lat: 47.141, tags: { shop: 'bakery;cafe', amenity: 'yes', name: 'Beck' } },
        { id: 3, lon: 9.522, lat: 47.142, tags: { leisure: 'park', name: 'Stadtpark' } },
        { id: 4, lon: 9.523, lat: 47.143, tags: { healthcare: 'pharmacy', name: 'Apotheke' } },
        { id: 5, lon: 9.524, lat: 47.144, tags: { tourism: 'yes', name: 'Sehenswürdigkeit' } },
        { id: 6, lon: 9.525, lat: 47.145, tags: { amenity: 'bench' } }, // no name: no place
        {
          id: 7,
          lon: 9.526,
          lat: 47.146,
          tags: { amenity: 'bank', name: 'Landesbank', 'addr:housenumber': '1', 'addr:street': 'Städtle' },
        },
      ],
      [],
    );
    const summary = await importFile(pbf, 'osm', { source: 'osm-categories', countryCode: 'LI' });
    expect(summary).toMatchObject({ read: 7, inserted: 7, skipped: 1, rejected: 0 });
    expect(await categories('osm-categories')).toEqual({
      n1: 'poi amenity=restaurant',
      n2: 'poi shop=bakery',
      n3: 'poi leisure=park',
      n4: 'poi healthcare=pharmacy',
      n5: 'poi null',
      n7: 'address null',
      'n7:poi': 'poi amenity=bank',
    });
    const before = await versions('osm-categories');
    expect(await importFile(pbf, 'osm', { source: 'osm-categories', countryCode: 'LI' })).toMatchObject({
      unchanged: 7,
    });
    expect(await versions('osm-categories')).toEqual(before);
  });

  it('reads a GeoJSON category and rejects one that is no tag', async () => {
    const file = join(dir, 'pois.ndjson');
    const place = (category: string) =>
      JSON.stringify({
        type: 'Feature',
        geometry: { type: 'Point', coordinates: [9.52, 47.14] },
        properties: { kind: 'poi', name: `A ${category}`, category, id: category },
      });
    writeFileSync(file, [place('tourism=hotel'), place('a hotel')].join('\n'));
    const summary = await importFile(file, 'geojson', { source: 'geojson-categories' });
    expect(summary).toMatchObject({ inserted: 1, rejected: 1 });
    expect(await categories('geojson-categories')).toEqual({ 'tourism=hotel': 'poi tourism=hotel' });
  });
});
