import { Test, TestingModule } from '@nestjs/testing';
import { DatabaseModule } from '../../src/database/database.module';
import { AppValidationPipe } from '../../src/common/validation.pipe';
import { SearchRequestDto, SearchResponseDto } from '../../src/search/search.dto';
import { SearchRepository } from '../../src/search/search.repository';
import { SearchService } from '../../src/search/search.service';
import { feature, importFixture, resetImagery, testConfig } from '../helpers/test-app';

// A catalogue laid out around a centre so every filter's answer can be computed here, from the
// fixture, and compared with what PostgreSQL/PostGIS returns.
const CENTRE = { lat: 47.14, lon: 9.52 };
const EARTH_RADIUS_M = 6_371_008.8;
const rad = (d: number) => (d * Math.PI) / 180;
const deg = (r: number) => (r * 180) / Math.PI;

function destination(from: { lat: number; lon: number }, bearingDeg: number, metres: number) {
  const δ = metres / EARTH_RADIUS_M;
  const θ = rad(bearingDeg);
  const φ1 = rad(from.lat);
  const λ1 = rad(from.lon);
  const φ2 = Math.asin(Math.sin(φ1) * Math.cos(δ) + Math.cos(φ1) * Math.sin(δ) * Math.cos(θ));
  const λ2 = λ1 + Math.atan2(Math.sin(θ) * Math.sin(δ) * Math.cos(φ1), Math.cos(δ) - Math.sin(φ1) * Math.sin(φ2));
  return { lat: deg(φ2), lon: deg(λ2) };
}

function distance(a: { lat: number; lon: number }, b: { lat: number; lon: number }) {
  const h = Math.sin(rad(b.lat - a.lat) / 2) ** 2 + Math.cos(rad(a.lat)) * Math.cos(rad(b.lat)) * Math.sin(rad(b.lon - a.lon) / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.sqrt(h));
}

function bearing(from: { lat: number; lon: number }, to: { lat: number; lon: number }) {
  const y = Math.sin(rad(to.lon - from.lon)) * Math.cos(rad(to.lat));
  const x = Math.cos(rad(from.lat)) * Math.sin(rad(to.lat)) - Math.sin(rad(from.lat)) * Math.cos(rad(to.lat)) * Math.cos(rad(to.lon - from.lon));
  return (deg(Math.atan2(y, x)) + 360) % 360;
}

interface Rec {
  id: string;
  lat: number;
  lon: number;
  heading: number;
  date: string;
  interactive: boolean;
  address: string;
}

const HEADINGS = [0, 10, 22.5, 45, 90, 135, 180, 225, 270, 315, 337.5, 350, 359.9, 11, 349];
const DISTANCES = [0, 8, 35, 90, 160, 240, 330, 480, 700, 1200];
const DATES = ['2019-12-31', '2020-01-01', '2020-06-15', '2020-12-31', '2021-01-01'];

function catalogue(): Rec[] {
  const recs: Rec[] = [];
  let n = 0;
  for (const [i, d] of DISTANCES.entries()) {
    for (const [j, b] of [0, 72, 144, 216, 288].entries()) {
      if (d === 0 && b > 0) continue;
      // Distinct distances, so nearest-first has one right answer (ties are tested separately).
      const p = destination(CENTRE, b + i * 7, d + j * 3);
      const heading = HEADINGS[n % HEADINGS.length];
      recs.push({
        id: `c0000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
        ...p,
        heading,
        date: DATES[n % DATES.length],
        interactive: n % 4 === 0,
        address: `Filterweg ${n}, 9490 Vaduz`,
      });
      n++;
    }
  }
  // Three images at one spot: equal distances, ordered by id.
  for (let k = 0; k < 3; k++) {
    recs.push({ ...recs[7], id: `c0000000-0000-4000-8000-${String(n).padStart(12, '0')}`, address: `Filterweg ${n}, 9490 Vaduz` });
    n++;
  }
  // Across the antimeridian, and far away.
  for (const [lat, lon] of [[-15, 179.9], [-15, -179.9], [-15, 179.5], [-15, -179.5], [-15, 175], [-15, -175], [10, 0]]) {
    recs.push({
      id: `c0000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
      lat, lon, heading: 90, date: '2020-06-15', interactive: false, address: `Fernweg ${n}`,
    });
    n++;
  }
  return recs;
}

describe('search filters and sorting on PostgreSQL/PostGIS', () => {
  const recs = catalogue();
  const pipe = new AppValidationPipe();
  let moduleRef: TestingModule;
  let service: SearchService;

  beforeAll(async () => {
    await resetImagery();
    await importFixture(
      recs.map((r) =>
        feature(r.address, { id: r.id, heading: r.heading, captured_at: r.date, interactive: r.interactive }, [r.lon, r.lat]),
      ),
    );
    moduleRef = await Test.createTestingModule({
      imports: [DatabaseModule.forRoot(testConfig())],
      providers: [SearchRepository, SearchService],
    }).compile();
    await moduleRef.init();
    service = moduleRef.get(SearchService);
  });

  afterAll(() => moduleRef.close());

  async function search(body: object): Promise<SearchResponseDto> {
    return service.search((await pipe.transform(body, { type: 'body', metatype: SearchRequestDto })) as SearchRequestDto);
  }

  // Every page of a search, checking each page is full until the last and pages never overlap.
  async function walk(body: object, limit = 7): Promise<SearchResponseDto['data']> {
    const all: SearchResponseDto['data'] = [];
    const first = await search({ ...body, limit, page: 1, include: ['distance_m', 'captured_at', 'heading'] });
    for (let page = 1; page <= Math.max(1, first.pageTotal); page++) {
      const res = page === 1 ? first : await search({ ...body, limit, page, include: ['distance_m', 'captured_at', 'heading'] });
      expect(res.result_id).toBe(first.result_id);
      if (page < first.pageTotal) expect(res.data).toHaveLength(limit);
      all.push(...res.data);
    }
    expect(new Set(all.map((r) => r.id)).size).toBe(all.length);
    return all;
  }

  const idsOf = (rows: { id: string }[]) => rows.map((r) => r.id);
  // Equal points are equally far in any arithmetic; otherwise distances differ by metres.
  const byDistanceFrom = (p: { lat: number; lon: number }) => (a: Rec, b: Rec) =>
    (a.lat === b.lat && a.lon === b.lon ? 0 : distance(p, a) - distance(p, b)) || a.id.localeCompare(b.id);

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

  it('bbox, also across the antimeridian', async () => {
    const inBox = (r: Rec, [w, s, e, n]: number[]) => r.lat >= s && r.lat <= n && (w < e ? r.lon >= w && r.lon <= e : r.lon >= w || r.lon <= e);
    for (const bbox of [[9.515, 47.137, 9.525, 47.143], [179, -20, -179, -10], [170, -20, -170, -10], [-180, -90, 180, 90]]) {
      const got = await walk({ bbox, sort: 'oldest' });
      const expected = recs.filter((r) => inBox(r, bbox)).sort((a, b) => a.date.localeCompare(b.date) || a.id.localeCompare(b.id));
      expect({ bbox, ids: idsOf(got) }).toEqual({ bbox, ids: idsOf(expected) });
    }
  });

  it('captured_after and captured_before are inclusive; newest and oldest break ties by id', async () => {
    const got = await walk({ bbox: [-180, -90, 180, 90], captured_after: '2020-01-01', captured_before: '2020-12-31', sort: 'newest' });
    const expected = recs
      .filter((r) => r.date >= '2020-01-01' && r.date <= '2020-12-31')
      .sort((a, b) => b.date.localeCompare(a.date) || b.id.localeCompare(a.id));
    expect(idsOf(got)).toEqual(idsOf(expected));
    expect(got.map((r) => r.captured_at)).toEqual(expected.map((r) => r.date));
  });

  it('interactive true and false', async () => {
    for (const interactive of [true, false]) {
      const got = await walk({ near: { ...CENTRE, radius_m: 5000 }, interactive });
      expect(idsOf(got).sort()).toEqual(recs.filter((r) => distance(CENTRE, r) <= 5000 && r.interactive === interactive).map((r) => r.id).sort());
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
    for (const [min, max] of [[350, 10], [10, 22.5], [0, 360], [180, 180]]) {
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
    const expected = recs.filter((r) => r.address.startsWith('Filterweg') && distance(CENTRE, r) <= 100 && !r.interactive);
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
    const expected = recs.filter((r) => r.address.startsWith('Filterweg')).sort((a, b) => a.date.localeCompare(b.date) || a.id.localeCompare(b.id));
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
