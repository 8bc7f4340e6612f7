import type { LineString, MultiPolygon, Polygon } from 'geojson';
import { unwrapAntimeridian } from '../../web/src/antimeridian';

// world-atlas keeps shapes whole across +-180 (web/src/antimeridian.ts makes them flat-map safe).
describe('unwrapAntimeridian', () => {
  const jumps = (ring: number[][]) => ring.slice(1).filter((p, i) => Math.abs(p[0] - ring[i][0]) > 180).length;

  it('keeps a ring that crosses the antimeridian and comes back continuous (no band round the world)', () => {
    const fiji: Polygon = {
      type: 'Polygon',
      coordinates: [
        [
          [178, -17],
          [-179, -17],
          [-179, -16],
          [178, -16],
          [178, -17],
        ],
      ],
    };
    const [ring] = unwrapAntimeridian(fiji).coordinates;
    expect(ring).toEqual([
      [178, -17],
      [181, -17],
      [181, -16],
      [178, -16],
      [178, -17],
    ]);
    expect(jumps(ring)).toBe(0);
  });

  it('closes a ring that goes all the way round through its pole, and drops zero-area pole rings', () => {
    const antarctica: MultiPolygon = {
      type: 'MultiPolygon',
      coordinates: [
        [
          [
            [-180, -90],
            [0, -90],
            [180, -90],
            [-180, -90],
          ],
          [
            [-170, -70],
            [-10, -72],
            [100, -68],
            [179, -71],
            [-170, -70],
          ],
        ],
        [
          [
            [-180, -90],
            [180, -90],
            [-180, -90],
          ],
        ],
      ],
    };
    const out = unwrapAntimeridian(antarctica);
    expect(out.coordinates).toHaveLength(1);
    expect(out.coordinates[0]).toHaveLength(1);
    const ring = out.coordinates[0][0];
    // Continuous from -170 east to 190 (= -170 + 360), then down to the pole and back to the start.
    expect(ring.slice(0, 5)).toEqual([
      [-170, -70],
      [-10, -72],
      [100, -68],
      [179, -71],
      [190, -70],
    ]);
    expect(ring.slice(5)).toEqual([
      [190, -90],
      [-170, -90],
      [-170, -70],
    ]);
    expect(ring[0]).toEqual(ring[ring.length - 1]);
  });

  it('leaves shapes away from the antimeridian untouched', () => {
    const line: LineString = {
      type: 'LineString',
      coordinates: [
        [9.5, 47.1],
        [9.6, 47.2],
      ],
    };
    expect(unwrapAntimeridian(line)).toEqual(line);
    const box: Polygon = {
      type: 'Polygon',
      coordinates: [
        [
          [0, 0],
          [1, 0],
          [1, 1],
          [0, 0],
        ],
      ],
    };
    expect(unwrapAntimeridian(box)).toEqual(box);
  });

  it('unwraps border lines westwards too', () => {
    const line: LineString = {
      type: 'LineString',
      coordinates: [
        [-179, 65],
        [179, 66],
        [178, 67],
      ],
    };
    expect(unwrapAntimeridian(line).coordinates).toEqual([
      [-179, 65],
      [-181, 66],
      [-182, 67],
    ]);
  });
});
