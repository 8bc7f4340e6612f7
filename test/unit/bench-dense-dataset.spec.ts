import { parseFeature } from '../../src/imagery/imagery-feature';
import { toFeature } from '../helpers/imagery-files';
import { alongStreet, benchRecords, benchStreets, datasetVersion, denseStreetRecords } from '../bench/bench-dataset';
import { queryBodies } from '../bench/bench-queries';

const SAMPLE = 20_000;
const records = [...benchRecords(8, SAMPLE, 'dense')];
const METRES_PER_DEGREE = 111_320;
// Metres between two points (equirectangular: enough over a few km).
const metres = (a: { lon: number; lat: number }, b: { lon: number; lat: number }) =>
  Math.hypot((a.lon - b.lon) * Math.cos((a.lat * Math.PI) / 180), a.lat - b.lat) * METRES_PER_DEGREE;

describe('bench dataset: dense', () => {
  it('has exactly the requested records, unique, the same for a seed, none the sparse set has', () => {
    expect(records).toHaveLength(SAMPLE);
    expect(new Set(records.map((r) => r.id)).size).toBe(SAMPLE);
    expect([...benchRecords(8, 500, 'dense')]).toEqual(records.slice(0, 500));
    const sparse = new Set([...benchRecords(8, 2_000)].map((r) => r.id));
    expect(records.filter((r) => sparse.has(r.id))).toEqual([]);
    expect(datasetVersion('dense')).not.toBe(datasetVersion('sparse'));
  });

  it('gives only records the importer accepts', () => {
    for (const r of records.slice(0, 2_000)) expect(parseFeature(toFeature(r)).ok).toBe(true);
  });

  it('walks each street at 3-5 m steps, in its lane, two or three passes', () => {
    const [street] = benchStreets(8, SAMPLE, 'dense');
    const own = [...denseStreetRecords(8, street)];
    // Two or three passes of one image per 3, 4 or 5 m.
    const shapes = [2, 3].flatMap((passes) => [3, 4, 5].map((step) => passes * (Math.floor(street.length / step) + 1)));
    expect(shapes).toContain(own.length);
    const first = own.slice(0, 20);
    const steps = first.slice(1).map((r, i) => metres(r, first[i]));
    const median = [...steps].sort((a, b) => a - b)[Math.floor(steps.length / 2)];
    expect(median).toBeGreaterThanOrEqual(2.5);
    expect(median).toBeLessThanOrEqual(5.5);
    // Every image within a few metres of the street line (its lane plus GPS noise).
    for (const r of own.slice(0, 200)) {
      const nearestOnLine = Math.min(
        ...Array.from({ length: 101 }, (_, i) => {
          const [lon, lat] = alongStreet(street, (street.length * i) / 100, 0);
          return metres(r, { lon, lat });
        }),
      );
      expect(nearestOnLine).toBeLessThan(street.length / 100 + 6);
    }
  });

  it('puts hundreds of images within 250 m of a dense_coordinates point', () => {
    const [body] = queryBodies(8, SAMPLE, 5, 'dense').dense_coordinates;
    const [lat, lon] = body.query!.split(',').map(Number);
    const within = records.filter((r) => metres(r, { lon, lat }) <= 250).length;
    expect(within).toBeGreaterThan(100);
  });

  it("puts a street's images in a dense_bbox box and more than 50 pages in a deep_coordinates circle", () => {
    const bodies = queryBodies(8, SAMPLE, 5, 'dense');
    const [minLon, minLat, maxLon, maxLat] = bodies.dense_bbox[0].bbox!;
    expect(bodies.dense_bbox[0].query).toBeUndefined();
    const inBox = records.filter((r) => r.lon >= minLon && r.lon <= maxLon && r.lat >= minLat && r.lat <= maxLat);
    expect(inBox.length).toBeGreaterThan(60);
    const deep = bodies.deep_coordinates[0];
    expect(deep).toMatchObject({ page: 50, near: { radius_m: 1000 } });
    const [lat, lon] = deep.query!.split(',').map(Number);
    expect(records.filter((r) => metres(r, { lon, lat }) <= 1000).length).toBeGreaterThan(500);
  });
});
