import { TestingModule } from '@nestjs/testing';
import { SearchService } from '../../src/search/search.service';
import {
  catalogue,
  CENTRE,
  destination,
  distance,
  filterSearchTools,
  startFilterSearch,
} from '../helpers/filter-catalogue';
import type { Rec } from '../helpers/filter-catalogue';

// Filters by place on a catalogue laid out around a centre (test/helpers/filter-catalogue.ts): every answer is
// computed here, from the fixture, and compared with what PostgreSQL/PostGIS returns.
describe('search filters by place on PostgreSQL/PostGIS', () => {
  const recs = catalogue();
  let moduleRef: TestingModule;
  let service: SearchService;
  const { search, walk, idsOf, byDistanceFrom } = filterSearchTools(() => service);

  beforeAll(async () => {
    ({ moduleRef, service } = await startFilterSearch(recs));
  });

  afterAll(() => moduleRef.close());

  it('near: everything within the radius, nearest first, with distances', async () => {
    for (const radius_m of [1, 100, 250, 1000]) {
      const expected = recs.filter((r) => distance(CENTRE, r) <= radius_m).sort(byDistanceFrom(CENTRE));
      const got = await walk({ near: { ...CENTRE, radius_m } });
      expect(idsOf(got)).toEqual(idsOf(expected));
      for (const [i, r] of got.entries()) expect(r.distance_m).toBeCloseTo(distance(CENTRE, expected[i]), 0);
    }
  });

  it('near across the antimeridian', async () => {
    const centre = { lat: -15, lon: 180 };
    for (const radius_m of [20_000, 50_000]) {
      const got = await walk({ near: { ...centre, radius_m } });
      const expected = recs.filter((r) => distance(centre, r) <= radius_m).sort(byDistanceFrom(centre));
      expect({ radius_m, ids: idsOf(got) }).toEqual({ radius_m, ids: idsOf(expected) });
      expect(got.length).toBeGreaterThanOrEqual(2);
    }
  });

  it('coordinates in the query: nearest first within 250 m', async () => {
    const got = await walk({ query: `${CENTRE.lat}, ${CENTRE.lon}` });
    const expected = recs.filter((r) => distance(CENTRE, r) <= 250).sort(byDistanceFrom(CENTRE));
    expect(idsOf(got)).toEqual(idsOf(expected));
  });

  it('coordinates with near: { radius_m }: the radius around the query point, the same search as near at that point', async () => {
    const query = `${CENTRE.lat}, ${CENTRE.lon}`;
    const got = await walk({ query, near: { radius_m: 1000 } });
    expect(idsOf(got)).toEqual(idsOf(recs.filter((r) => distance(CENTRE, r) <= 1000).sort(byDistanceFrom(CENTRE))));
    const same = await search({ query, near: { ...CENTRE, radius_m: 1000 } });
    expect(same.result_id).toBe((await search({ query, near: { radius_m: 1000 } })).result_id);
  });

  it('nothing within the radius: interpretation names the nearest record the other filters let through', async () => {
    const point = destination(CENTRE, 45, 3000);
    const query = `${point.lat.toFixed(7)}, ${point.lon.toFixed(7)}`;
    const nearest = (keep: (r: Rec) => boolean) => recs.filter(keep).sort(byDistanceFrom(point))[0];
    for (const [filter, keep] of [
      [{}, () => true],
      [{ interactive: true }, (r: Rec) => r.interactive],
    ] as const) {
      const expected = nearest(keep);
      const res = await search({ query, ...filter, include: ['interpretation'] });
      expect(res.data).toEqual([]);
      expect(res.interpretation).toMatchObject({ kind: 'coordinates', radius_m: 250 });
      expect(res.interpretation!.nearest!.distance_m).toBeCloseTo(distance(point, expected), 0);
      expect(res.interpretation!.nearest).toMatchObject({
        lat: expect.closeTo(expected.lat, 6),
        lon: expect.closeTo(expected.lon, 6),
      });
      // Widening the radius to that distance finds it first.
      const radius_m = Math.ceil(res.interpretation!.nearest!.distance_m) + 1;
      const wider = await search({ query, ...filter, near: { radius_m }, include: ['interpretation'] });
      expect(wider.data[0].id).toBe(expected.id);
      expect(wider.interpretation).not.toHaveProperty('nearest');
    }
    // None of the nearest records passes the filters: null. Without include, the fixed contract.
    const none = await search({ query, captured_after: '2030-01-01', include: ['interpretation'] });
    expect(none.interpretation!.nearest).toBeNull();
    expect(Object.keys(await search({ query })).sort()).toEqual([
      'data',
      'isSuccess',
      'page',
      'pageTotal',
      'region',
      'region_id',
      'result_id',
    ]);
  });

  it('bbox, also across the antimeridian', async () => {
    const inBox = (r: Rec, [w, s, e, n]: number[]) =>
      r.lat >= s && r.lat <= n && (w < e ? r.lon >= w && r.lon <= e : r.lon >= w || r.lon <= e);
    for (const bbox of [
      [9.515, 47.137, 9.525, 47.143],
      [179, -20, -179, -10],
      [170, -20, -170, -10],
      [-180, -90, 180, 90],
    ]) {
      const got = await walk({ bbox, sort: 'oldest' });
      const expected = recs
        .filter((r) => inBox(r, bbox))
        .sort((a, b) => a.date.localeCompare(b.date) || a.id.localeCompare(b.id));
      expect({ bbox, ids: idsOf(got) }).toEqual({ bbox, ids: idsOf(expected) });
    }
  });
});
