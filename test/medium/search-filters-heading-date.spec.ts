import { TestingModule } from '@nestjs/testing';
import { SearchService } from '../../src/search/search.service';
import {
  catalogue,
  CENTRE,
  bearing,
  distance,
  filterSearchTools,
  startFilterSearch,
} from '../helpers/filter-catalogue';

// Date, heading, text and combined filters, and sorting, on the catalogue of test/helpers/filter-catalogue.ts:
// every answer is computed here, from the fixture, and compared with what PostgreSQL/PostGIS returns.
describe('search filters by date, heading and text, and sorting, on PostgreSQL/PostGIS', () => {
  const recs = catalogue();
  let moduleRef: TestingModule;
  let service: SearchService;
  const { search, walk, idsOf } = filterSearchTools(() => service);

  beforeAll(async () => {
    ({ moduleRef, service } = await startFilterSearch(recs));
  });

  afterAll(() => moduleRef.close());

  it('captured_after and captured_before are inclusive; newest and oldest break ties by id', async () => {
    const got = await walk({
      bbox: [-180, -90, 180, 90],
      captured_after: '2020-01-01',
      captured_before: '2020-12-31',
      sort: 'newest',
    });
    const expected = recs
      .filter((r) => r.date >= '2020-01-01' && r.date <= '2020-12-31')
      .sort((a, b) => b.date.localeCompare(a.date) || b.id.localeCompare(a.id));
    expect(idsOf(got)).toEqual(idsOf(expected));
    expect(got.map((r) => r.captured_at)).toEqual(expected.map((r) => r.date));
  });

  it('interactive true and false', async () => {
    for (const interactive of [true, false]) {
      const got = await walk({ near: { ...CENTRE, radius_m: 5000 }, interactive });
      expect(idsOf(got).sort()).toEqual(
        recs
          .filter((r) => distance(CENTRE, r) <= 5000 && r.interactive === interactive)
          .map((r) => r.id)
          .sort(),
      );
    }
  });

  it('facing: the sector of the response compass, boundaries included on the clockwise side', async () => {
    const near = { ...CENTRE, radius_m: 5000 };
    const sector = (h: number) => ['N', 'NE', 'E', 'SE', 'S', 'SW', 'W', 'NW'][Math.floor((h + 22.5) / 45) % 8];
    for (const facing of ['N', 'NE', 'W', 'NW']) {
      const got = await walk({ near, facing });
      const expected = recs.filter((r) => distance(CENTRE, r) <= 5000 && sector(r.heading) === facing);
      expect({ facing, ids: idsOf(got).sort() }).toEqual({ facing, ids: idsOf(expected).sort() });
      for (const r of got) expect(r.compass).toMatch(new RegExp(`\\(${facing}\\)$`));
    }
  });

  it('heading ranges, inclusive, wrapping through north', async () => {
    const near = { ...CENTRE, radius_m: 5000 };
    for (const [min, max] of [
      [350, 10],
      [10, 22.5],
      [0, 360],
      [180, 180],
    ]) {
      const got = await walk({ near, heading: { min, max } });
      const inRange = (h: number) => (min <= max ? h >= min && h <= max : h >= min || h <= max);
      const expected = recs.filter((r) => distance(CENTRE, r) <= 5000 && inRange(r.heading));
      expect({ min, max, ids: idsOf(got).sort() }).toEqual({ min, max, ids: idsOf(expected).sort() });
    }
  });

  it('looking_at: headings that point at the target within fov/2, 360-degree imagery always', async () => {
    for (const fov_deg of [90, 30]) {
      const got = await walk({ looking_at: { ...CENTRE, fov_deg, radius_m: 800 } });
      const expected = recs.filter((r) => {
        if (distance(CENTRE, r) > 800) return false;
        if (r.interactive || distance(CENTRE, r) === 0) return true;
        const off = Math.abs(((r.heading - bearing(r, CENTRE) + 540) % 360) - 180);
        return off <= fov_deg / 2;
      });
      expect({ fov_deg, ids: idsOf(got).sort() }).toEqual({ fov_deg, ids: idsOf(expected).sort() });
      expect(got.length).toBeGreaterThan(expected.filter((r) => r.interactive).length);
    }
  });

  it('text with filters: only matching text inside the filters', async () => {
    const body = { query: 'Filterweg', near: { ...CENTRE, radius_m: 100 }, interactive: false, limit: 50 };
    const got = (await search({ ...body, include: ['score', 'distance_m'] })).data;
    const expected = recs.filter(
      (r) => r.address.startsWith('Filterweg') && distance(CENTRE, r) <= 100 && !r.interactive,
    );
    expect(idsOf(got).sort()).toEqual(idsOf(expected).sort());
    // By relevance; at equal relevance the nearest first.
    for (let i = 1; i < got.length; i++) {
      const [a, b] = [got[i - 1], got[i]];
      expect(a.score!).toBeGreaterThanOrEqual(b.score!);
      if (a.score === b.score) expect(a.distance_m!).toBeLessThanOrEqual(b.distance_m!);
    }
  });

  it('text sorted by date', async () => {
    const got = await walk({ query: 'Filterweg', sort: 'oldest' });
    const expected = recs
      .filter((r) => r.address.startsWith('Filterweg'))
      .sort((a, b) => a.date.localeCompare(b.date) || a.id.localeCompare(b.id));
    expect(idsOf(got)).toEqual(idsOf(expected));
  });

  it('combines every filter at once', async () => {
    const body = {
      near: { ...CENTRE, radius_m: 1000 },
      bbox: [9.5, 47.13, 9.54, 47.15],
      captured_after: '2020-01-01',
      interactive: false,
      heading: { min: 0, max: 180 },
      sort: 'newest',
    };
    const got = await walk(body);
    const expected = recs
      .filter((r) => distance(CENTRE, r) <= 1000 && r.lon >= 9.5 && r.lon <= 9.54 && r.lat >= 47.13 && r.lat <= 47.15)
      .filter((r) => r.date >= '2020-01-01' && !r.interactive && r.heading <= 180)
      .sort((a, b) => b.date.localeCompare(a.date) || b.id.localeCompare(a.id));
    expect(idsOf(got)).toEqual(idsOf(expected));
    expect(got.length).toBeGreaterThan(0);
  });
});
