import { formatSummary } from '../../src/cli/import-progress';
import { sniffGeoJsonLayout } from '../../src/places/formats/geojson-places.reader';
import { OsmContext } from '../../src/places/formats/osm-context';
import { osmSourceId, placesFromOsm } from '../../src/places/formats/osm-tags';
import { representativePoint } from '../../src/places/place-geometry';
import { placeFormatFromPath } from '../../src/places/place-reader';
import { RawPlace } from '../../src/places/place-validation';

describe('OpenStreetMap mapping', () => {
  it('maps osmium ids to OSM ids (areas are 2 x way id, or 2 x relation id + 1)', () => {
    expect(['n5', 'w7', 'a200', 'a201', 'x1', 5].map(osmSourceId)).toEqual(['n5', 'w7', 'w100', 'r100', null, null]);
  });

  it('makes an addr:place address, a street only from a line, and a poi beside an address', () => {
    expect(placesFromOsm('n1', { 'addr:housenumber': '6', 'addr:place': 'Silum' }, 9.5, 47.1, false)).toEqual([
      {
        id: 'n1',
        // The locality comes from where it lies (osm-setting.ts), not from addr:place.
        place: expect.objectContaining({ kind: 'address', housenumber: '6', street: 'Silum', locality: undefined }),
      },
    ]);
    expect(placesFromOsm('n2', { highway: 'bus_stop', name: 'Post' }, 9.5, 47.1, false)).toEqual([]);
    expect(placesFromOsm('w3', { highway: 'platform', name: 'Gleis 1' }, 9.5, 47.1, true)).toEqual([]);
    expect(placesFromOsm('w4', { highway: 'residential', name: 'Kirchweg' }, 9.5, 47.1, true)[0].place.kind).toBe(
      'street',
    );
    const shop = placesFromOsm(
      'n5',
      { shop: 'bakery', name: 'Beck', 'addr:housenumber': '1', 'addr:street': 'Kirchweg' },
      9.5,
      47.1,
      false,
    );
    expect(shop.map((p) => [p.id, p.place.kind])).toEqual([
      ['n5', 'address'],
      ['n5:poi', 'poi'],
    ]);
  });

  it('reads population leniently and keeps alternative names, each apart, then its names in other languages', () => {
    const [town] = placesFromOsm(
      'n6',
      {
        place: 'city',
        name: 'Zürich',
        population: "421'878",
        alt_name: 'Zurich;Turicum',
        'name:en': 'Zurich',
        'name:ru': 'Цюрих',
        'name:prefix': 'Stadt',
      },
      8.5,
      47.4,
      false,
    );
    expect(town.place).toMatchObject({
      kind: 'locality',
      population: 421878,
      importance: undefined,
      alt_names: ['Zurich', 'Turicum', 'Цюрих'],
      names: { en: 'Zurich', ru: 'Цюрих' },
    });
    const [village] = placesFromOsm(
      'n7',
      { place: 'village', name: 'Planken', population: 'about 400' },
      9.5,
      47.2,
      false,
    );
    expect(village.place).toMatchObject({ population: undefined, importance: 0.3 });
  });

  it('completes a street from an address on it, else from the nearest town', () => {
    const context = new OsmContext();
    context.learn({ kind: 'locality', name: 'Vaduz', lon: 9.52, lat: 47.14 }, 'town');
    context.learn({ kind: 'locality', name: 'Schaan', lon: 9.51, lat: 47.17 }, 'town');
    context.learn({ kind: 'locality', name: 'Hamlet', lon: 9.53, lat: 47.15 }, 'hamlet'); // too small to stand for a street's town
    context.learn(
      { kind: 'address', street: 'Kirchweg', postcode: '9494', locality: 'Schaan', lon: 9.512, lat: 47.169 },
      undefined,
    );
    const onKirchweg: RawPlace = { kind: 'street', name: 'Kirchweg', street: 'Kirchweg', lon: 9.513, lat: 47.17 };
    const elsewhere: RawPlace = { kind: 'street', name: 'Feldweg', street: 'Feldweg', lon: 9.53, lat: 47.151 };
    const farAway: RawPlace = { kind: 'street', name: 'Main Street', street: 'Main Street', lon: -89.6, lat: 39.8 };
    [onKirchweg, elsewhere, farAway].forEach((p) => context.complete(p));
    expect([onKirchweg, elsewhere, farAway].map((p) => [p.locality, p.postcode])).toEqual([
      ['Schaan', '9494'],
      ['Vaduz', undefined],
      [undefined, undefined],
    ]);
  });
});

describe('representative points', () => {
  it.each([
    [{ type: 'Point', coordinates: [1, 2] }, [1, 2]],
    [
      {
        type: 'LineString',
        coordinates: [
          [0, 0],
          [1, 1],
          [2, 2],
        ],
      },
      [1, 1],
    ],
    [
      {
        type: 'Polygon',
        coordinates: [
          [
            [0, 0],
            [2, 0],
            [2, 2],
            [0, 2],
            [0, 0],
          ],
        ],
      },
      [1, 1],
    ],
    [
      {
        type: 'MultiPolygon',
        coordinates: [
          [
            [
              [0, 0],
              [4, 0],
              [4, 4],
              [0, 4],
              [0, 0],
            ],
          ],
        ],
      },
      [2, 2],
    ],
    // Halfway along the line, not its middle vertex (0.1, 0): the vertices crowd its start.
    [
      {
        type: 'LineString',
        coordinates: [
          [0, 0],
          [0.05, 0],
          [0.1, 0],
          [1, 0],
        ],
      },
      [0.5, 0],
    ],
    // The longest part of a multi-line.
    [
      {
        type: 'MultiLineString',
        coordinates: [
          [
            [5, 5],
            [5.1, 5],
          ],
          [
            [0, 0],
            [1, 0],
          ],
        ],
      },
      [0.5, 0],
    ],
    // The centre of mass, not the mean of the vertices, which one side's many vertices pull to it.
    [
      {
        type: 'Polygon',
        coordinates: [
          [
            [0, 0],
            [0.1, 0],
            [0.2, 0],
            [0.3, 0],
            [0.4, 0],
            [1, 0],
            [1, 1],
            [0, 1],
            [0, 0],
          ],
        ],
      },
      [0.5, 0.5],
    ],
    // The largest part of a multi-polygon.
    [
      {
        type: 'MultiPolygon',
        coordinates: [
          [
            [
              [5, 5],
              [5.1, 5],
              [5.1, 5.1],
              [5, 5.1],
              [5, 5],
            ],
          ],
          [
            [
              [0, 0],
              [2, 0],
              [2, 2],
              [0, 2],
              [0, 0],
            ],
          ],
        ],
      },
      [1, 1],
    ],
    [{ type: 'Point', coordinates: ['1', 2] }, null],
    [{ type: 'GeometryCollection', geometries: [] }, null],
    [null, null],
  ])('%j -> %j', (geometry, point) => {
    const got = representativePoint(geometry);
    if (point === null) return expect(got).toBeNull();
    // Geodesic lengths and areas (@turf): within 0.001 degrees of the planar answer here.
    expect(got).not.toBeNull();
    expect(Math.abs(got![0] - point[0])).toBeLessThan(1e-3);
    expect(Math.abs(got![1] - point[1])).toBeLessThan(1e-3);
  });
});

describe('input formats', () => {
  it.each([
    ['liechtenstein.osm.pbf', 'osm'],
    ['x.osm', 'osm'],
    ['us/il/statewide.csv.gz', 'openaddresses'],
    ['places.geojson', 'geojson'],
    ['places.ndjson', 'geojson'],
    ['places.txt', undefined],
  ])('%s -> %s', (path, format) => expect(placeFormatFromPath(path)).toBe(format));

  it('tells one Feature per line from a FeatureCollection by the first bytes', () => {
    const feature = '{"type":"Feature","geometry":null,"properties":{}}';
    expect(sniffGeoJsonLayout(Buffer.from(`\uFEFF${feature}\n${feature}\n`))).toBe('seq');
    expect(sniffGeoJsonLayout(Buffer.from(`\u001e${feature}`))).toBe('seq');
    expect(sniffGeoJsonLayout(Buffer.from('{\n  "type": "FeatureCollection",\n  "features": []}'))).toBe('collection');
    expect(sniffGeoJsonLayout(Buffer.from('{"type":"FeatureCollection","features":[{"type":"Feat'))).toBe('collection');
    expect(sniffGeoJsonLayout(null)).toBe('collection');
  });
});

describe('formatSummary for places', () => {
  it('names skipped objects and no deletions', () => {
    const summary = {
      read: 10,
      inserted: 4,
      updated: 3,
      unchanged: 2,
      skipped: 7,
      rejected: 1,
      dryRun: false,
      elapsedMs: 1000,
    };
    expect(formatSummary(summary)).toBe(
      'read 10, inserted 4, updated 3, unchanged 2, skipped 7, rejected 1 in 1.0 s (10 records/s)',
    );
  });
});
