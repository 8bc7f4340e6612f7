import { join } from 'node:path';
import { PrismaService } from '../../src/database/prisma.service';
import { MapDataRepository } from '../../src/map-data/map-data.repository';
import { PlaceRepository } from '../../src/places/place.repository';
import { TilesRepository } from '../../src/tiles/tiles.repository';
import { encodeTile } from '../../src/tiles/tile-encoding';
import { LAYER_ROW_CAPS } from '../../src/tiles/tile-limits';
import { OsmWay, writeOsmPbf } from '../helpers/place-files';
import { placeImporterTools, PlaceImporter, startPlaceImporter } from '../helpers/place-importer';
import { resetPlaces } from '../helpers/places';
import { resetImagery } from '../helpers/test-app';
import { decodeTile, tileOf } from '../helpers/vector-tiles';
import { currentKind } from '../setup/test-database';

// Tiles as a map draws them, decoded with the reference decoder: an OpenStreetMap file imported as the
// command does (its map features kept), imagery around it, coverage refreshed as an imagery import does.
const LON = 9.52;
const LAT = 47.14;
const SOURCE = 'osm-tiles-test';
const NODES = [
  { id: 1, lon: 9.519, lat: 47.14 },
  { id: 2, lon: 9.521, lat: 47.14 },
  { id: 3, lon: 9.519, lat: 47.1405 },
  { id: 4, lon: 9.521, lat: 47.1405 },
  { id: 5, lon: 9.519, lat: 47.1395 },
  { id: 6, lon: 9.521, lat: 47.1395 },
  // a pond, a park and a building: closed ways
  ...[
    [7, 9.5195, 47.1398],
    [8, 9.5198, 47.1398],
    [9, 9.5198, 47.1399],
    [11, 9.5201, 47.1401],
    [12, 9.5204, 47.1401],
    [13, 9.5204, 47.1403],
    [14, 9.5201, 47.1403],
    [15, 9.5206, 47.1401],
    [16, 9.5207, 47.1401],
    [17, 9.5207, 47.1402],
  ].map(([id, lon, lat]) => ({ id, lon, lat })),
  { id: 20, lon: 9.5205, lat: 47.1402, tags: { place: 'town', name: 'Vaduz' } },
];
const WAYS: OsmWay[] = [
  { id: 100, nodes: [1, 2], tags: { highway: 'primary_link', name: 'Landstrasse' } },
  { id: 101, nodes: [3, 4], tags: { highway: 'footway' } },
  { id: 102, nodes: [5, 6], tags: { waterway: 'river', name: 'Rhein' } },
  { id: 103, nodes: [7, 8, 9, 7], tags: { natural: 'water', water: 'lake', name: 'Weiher' } },
  { id: 104, nodes: [11, 12, 13, 14, 11], tags: { leisure: 'park' } },
  { id: 105, nodes: [15, 16, 17, 15], tags: { building: 'yes', name: 'Rathaus' } },
];
const IMAGES = 30;

const sorted = (properties: object) => JSON.stringify(Object.entries(properties).sort());
const box = (f: { points: Array<{ x: number; y: number }> }) => [
  Math.min(...f.points.map((p) => p.x)),
  Math.min(...f.points.map((p) => p.y)),
  Math.max(...f.points.map((p) => p.x)),
  Math.max(...f.points.map((p) => p.y)),
];

describe('map tiles: what each layer of a tile holds', () => {
  let importer: PlaceImporter;
  let tiles: TilesRepository;
  const tools = placeImporterTools(() => importer);
  const tile = (z: number, lon = LON, lat = LAT) => tiles.tile(tileOf(lon, lat, z));

  beforeAll(async () => {
    // Other specs import the Liechtenstein extract at the same spot.
    await resetImagery();
    await resetPlaces();
    importer = await startPlaceImporter();
    tiles = new TilesRepository(importer.moduleRef.get(PrismaService));
    const pbf = writeOsmPbf(join(tools.dir, 'map.osm.pbf'), NODES, WAYS);
    const areas = await importer.moduleRef.get(PlaceRepository).openAreaSession();
    const map = await importer.moduleRef.get(MapDataRepository).openGeometrySession(SOURCE);
    try {
      await tools.importFile(pbf, 'osm', { source: SOURCE, countryCode: 'LI' }, areas, map);
      await map.finish();
    } finally {
      await areas.close();
      await map.close();
    }
    await importer.db.query(
      `INSERT INTO imagery (id, address, captured_at, heading, interactive, image_url, location)
       SELECT ('7d4bd3c2-1f1e-4a55-9b0c-' || lpad(g::text, 12, '0'))::uuid, 'Landstrasse ' || g, DATE '2024-05-01' + g,
              g * 10, g % 2 = 0, 'https://img.test/' || g || '.jpg',
              ST_SetSRID(ST_MakePoint(${LON} + g * 0.00001, ${LAT}), 4326)
       FROM generate_series(1, ${IMAGES}) g`,
    );
    await importer.moduleRef.get(MapDataRepository).refreshCoverage();
  }, 120_000);

  afterAll(async () => {
    await importer.db.query('DELETE FROM map_features WHERE source = $1', [SOURCE]);
    await importer.db.query('DELETE FROM places WHERE source = $1', [SOURCE]);
    await resetImagery();
    await importer.moduleRef.get(MapDataRepository).refreshCoverage();
    await importer.db.end();
    await importer.moduleRef.close();
    tools.removeFiles();
  });

  // The built-in database's PostGIS cannot encode tiles (no protobuf-c): there the service encodes the
  // statement's features itself (tile-encoding.ts), and every spec below runs on that path. Where PostGIS
  // can, both encodings of a tile must decode alike.
  if (currentKind() === 'server') {
    it.each([8, 12, 14, 16, 17])('encodes a tile at zoom %i as ST_AsMVT does', async (z) => {
      const address = tileOf(LON, LAT, z);
      const byPostgis = decodeTile(await tiles.tile(address));
      const byService = decodeTile(encodeTile(await tiles.tileFeatures(address)));
      expect(Object.keys(byService).sort()).toEqual(Object.keys(byPostgis).sort());
      for (const [name, layer] of Object.entries(byPostgis)) {
        const ours = byService[name];
        expect({ name, extent: ours.extent, count: ours.features.length }).toEqual({
          name,
          extent: layer.extent,
          count: layer.features.length,
        });
        // Each of ours matches one of PostGIS's: same kind and attributes, the same box within a unit
        // (both snap to the tile's grid; a ring may start at another vertex).
        const unmatched = [...layer.features];
        for (const mine of ours.features) {
          const at = unmatched.findIndex(
            (theirs) =>
              theirs.type === mine.type &&
              sorted(theirs.properties) === sorted(mine.properties) &&
              box(theirs).every((v, k) => Math.abs(v - box(mine)[k]) <= 1),
          );
          expect({
            name,
            unmatched:
              at < 0
                ? { ...mine, points: box(mine), theirs: unmatched.map((f) => [f.type, f.properties, box(f)]) }
                : null,
          }).toEqual({
            name,
            unmatched: null,
          });
          unmatched.splice(at, 1);
        }
      }
    });
  }

  it('draws every layer at street zoom, with the contract attributes', async () => {
    const layers = decodeTile(await tile(16));
    expect(Object.keys(layers).sort()).toEqual(
      ['buildings', 'coverage', 'landuse', 'paths', 'places', 'streets', 'water'].sort(),
    );
    expect(layers.streets.extent).toBe(4096);
    expect(layers.streets.features.map((f) => [f.type, f.properties])).toEqual([
      [2, { class: 'primary', name: 'Landstrasse' }],
    ]);
    expect(layers.paths.features.map((f) => f.properties)).toEqual([{ class: 'footway' }]);
    expect(layers.water.features.map((f) => [f.type, f.properties.class, f.properties.name]).sort()).toEqual([
      [2, 'river', 'Rhein'],
      [3, 'lake', 'Weiher'],
    ]);
    expect(layers.landuse.features.map((f) => [f.type, f.properties])).toEqual([[3, { class: 'park' }]]);
    expect(layers.buildings.features.map((f) => [f.type, f.properties])).toEqual([[3, { name: 'Rathaus' }]]);
    const vaduz = layers.places.features.find((f) => f.properties.name === 'Vaduz');
    expect(vaduz?.properties).toEqual({ name: 'Vaduz', kind: 'town', rank: 55, min_zoom: 8 });
  });

  it('has one coverage point per image from zoom 17, with its id, heading, 360 flag and date', async () => {
    const coverage = decodeTile(await tile(17)).coverage.features;
    expect(coverage).toHaveLength(IMAGES);
    const first = coverage.find((f) => f.properties.id === '7d4bd3c2-1f1e-4a55-9b0c-000000000001');
    expect(first).toMatchObject({ type: 1, properties: { heading: 10, interactive: false, date: '2024-05-02' } });
    expect(coverage.every((f) => !('count' in f.properties))).toBe(true);
  });

  it('counts coverage per grid cell below zoom 15, and leaves out what a zoom does not draw', async () => {
    const layers = decodeTile(await tile(10));
    const cells = layers.coverage.features;
    expect(cells.every((f) => typeof f.properties.count === 'number' && !('id' in f.properties))).toBe(true);
    expect(cells.reduce((sum, f) => sum + (f.properties.count as number), 0)).toBe(IMAGES);
    expect(cells.length).toBeLessThan(IMAGES);
    expect(Object.keys(layers)).not.toContain('buildings');
    expect(Object.keys(layers)).not.toContain('paths');
    expect(layers.streets.features.map((f) => f.properties.class)).toEqual(['primary']);
  });

  it('is empty where nothing lies', async () => {
    expect((await tile(16, -40, -40)).length).toBe(0);
  });

  it('reads at most the cap of images per tile from zoom 17, while the cells below zoom 15 count them all', async () => {
    const dense = LAYER_ROW_CAPS.coverageImages + 500;
    await importer.db.query(
      `INSERT INTO imagery (id, address, captured_at, heading, interactive, image_url, location)
       SELECT gen_random_uuid(), 'dense ' || g, DATE '2024-01-01', 0, false, 'https://img.test/d.jpg',
              ST_SetSRID(ST_MakePoint(${LON} - 0.0002 + (g % 50) * 0.000004, ${LAT} + (g / 50) * 0.000002), 4326)
       FROM generate_series(1, ${dense}) g`,
    );
    await importer.moduleRef.get(MapDataRepository).refreshCoverage();
    expect(decodeTile(await tile(17)).coverage.features).toHaveLength(LAYER_ROW_CAPS.coverageImages);
    const cells = decodeTile(await tile(14)).coverage.features;
    expect(cells.reduce((sum, f) => sum + (f.properties.count as number), 0)).toBe(IMAGES + dense);
  });

  it("replaces the source's map features on a new import, and keeps them when it stops early", async () => {
    const count = async () =>
      Number((await importer.db.query('SELECT count(*) AS n FROM map_features WHERE source = $1', [SOURCE])).rows[0].n);
    expect(await count()).toBe(WAYS.length);
    const pbf = join(tools.dir, 'map.osm.pbf');
    const again = async (finish: boolean) => {
      const areas = await importer.moduleRef.get(PlaceRepository).openAreaSession();
      const map = await importer.moduleRef.get(MapDataRepository).openGeometrySession(SOURCE);
      try {
        await tools.importFile(pbf, 'osm', { source: SOURCE, countryCode: 'LI' }, areas, map);
        if (finish) await map.finish();
      } finally {
        await areas.close();
        await map.close();
      }
    };
    await again(true);
    expect(await count()).toBe(WAYS.length);
    await importer.db.query("DELETE FROM map_features WHERE source = $1 AND layer = 'buildings'", [SOURCE]);
    await again(false); // not finished: what was there stays
    expect(await count()).toBe(WAYS.length - 1);
    await again(true);
    expect(await count()).toBe(WAYS.length);
  });

  it('raises the data version when coverage is rebuilt', async () => {
    const before = Number(await tiles.dataVersion());
    await importer.moduleRef.get(MapDataRepository).rebuildCoverage(); // (a refresh with nothing touched leaves it)
    expect(Number(await tiles.dataVersion())).toBe(before + 1);
  });
});
