import { PhotosModule } from '../../src/photos/photos.module';
import { Test, TestingModule } from '@nestjs/testing';
import { AppValidationPipe } from '../../src/common/validation.pipe';
import { DatabaseModule } from '../../src/database/database.module';
import { SearchRequestDto } from '../../src/search/dto/search-request.dto';
import { SearchResponseDto } from '../../src/search/dto/search-response.dto';
import { SEARCH_PROVIDERS } from '../../src/search/search.module';
import { SearchService } from '../../src/search/search.service';
import { feature, importFixture, resetImagery, testConfig } from './test-app';

// A catalogue laid out around a centre so every filter's answer can be computed here, from the
// fixture, and compared with what PostgreSQL/PostGIS returns.
export const CENTRE = { lat: 47.14, lon: 9.52 };
export const EARTH_RADIUS_M = 6_371_008.8;
export const rad = (d: number) => (d * Math.PI) / 180;
export const deg = (r: number) => (r * 180) / Math.PI;

export function destination(from: { lat: number; lon: number }, bearingDeg: number, metres: number) {
  const δ = metres / EARTH_RADIUS_M;
  const θ = rad(bearingDeg);
  const φ1 = rad(from.lat);
  const λ1 = rad(from.lon);
  const φ2 = Math.asin(Math.sin(φ1) * Math.cos(δ) + Math.cos(φ1) * Math.sin(δ) * Math.cos(θ));
  const λ2 = λ1 + Math.atan2(Math.sin(θ) * Math.sin(δ) * Math.cos(φ1), Math.cos(δ) - Math.sin(φ1) * Math.sin(φ2));
  return { lat: deg(φ2), lon: deg(λ2) };
}

export function distance(a: { lat: number; lon: number }, b: { lat: number; lon: number }) {
  const h =
    Math.sin(rad(b.lat - a.lat) / 2) ** 2 +
    Math.cos(rad(a.lat)) * Math.cos(rad(b.lat)) * Math.sin(rad(b.lon - a.lon) / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.sqrt(h));
}

export function bearing(from: { lat: number; lon: number }, to: { lat: number; lon: number }) {
  const y = Math.sin(rad(to.lon - from.lon)) * Math.cos(rad(to.lat));
  const x =
    Math.cos(rad(from.lat)) * Math.sin(rad(to.lat)) -
    Math.sin(rad(from.lat)) * Math.cos(rad(to.lat)) * Math.cos(rad(to.lon - from.lon));
  return (deg(Math.atan2(y, x)) + 360) % 360;
}

export interface Rec {
  id: string;
  lat: number;
  lon: number;
  heading: number;
  date: string;
  interactive: boolean;
  address: string;
}

export const HEADINGS = [0, 10, 22.5, 45, 90, 135, 180, 225, 270, 315, 337.5, 350, 359.9, 11, 349];
export const DISTANCES = [0, 8, 35, 90, 160, 240, 330, 480, 700, 1200];
export const DATES = ['2019-12-31', '2020-01-01', '2020-06-15', '2020-12-31', '2021-01-01'];

export function catalogue(): Rec[] {
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
    recs.push({
      ...recs[7],
      id: `c0000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
      address: `Filterweg ${n}, 9490 Vaduz`,
    });
    n++;
  }
  // Across the antimeridian, and far away.
  for (const [lat, lon] of [
    [-15, 179.9],
    [-15, -179.9],
    [-15, 179.5],
    [-15, -179.5],
    [-15, 175],
    [-15, -175],
    [10, 0],
  ]) {
    recs.push({
      id: `c0000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
      lat,
      lon,
      heading: 90,
      date: '2020-06-15',
      interactive: false,
      address: `Fernweg ${n}`,
    });
    n++;
  }
  return recs;
}

/** The catalogue imported, and the search service (without HTTP) on it. */
export async function startFilterSearch(recs: Rec[]): Promise<{ moduleRef: TestingModule; service: SearchService }> {
  await resetImagery();
  await importFixture(
    recs.map((r) =>
      feature(r.address, { id: r.id, heading: r.heading, captured_at: r.date, interactive: r.interactive }, [
        r.lon,
        r.lat,
      ]),
    ),
  );
  const moduleRef = await Test.createTestingModule({
    imports: [DatabaseModule.forRoot(testConfig()), PhotosModule],
    providers: SEARCH_PROVIDERS,
  }).compile();
  await moduleRef.init();
  const service = moduleRef.get(SearchService);
  return { moduleRef, service };
}

/** Searches as the controller runs them (validation pipe included); `service` is read on each call. */
export function filterSearchTools(service: () => SearchService) {
  const pipe = new AppValidationPipe();

  async function search(body: object): Promise<SearchResponseDto> {
    return service().search(
      (await pipe.transform(body, { type: 'body', metatype: SearchRequestDto })) as SearchRequestDto,
    );
  }

  // Every page of a search, checking each page is full until the last and pages never overlap.
  async function walk(body: object, limit = 7): Promise<SearchResponseDto['data']> {
    const all: SearchResponseDto['data'] = [];
    const first = await search({ ...body, limit, page: 1, include: ['distance_m', 'captured_at', 'heading'] });
    for (let page = 1; page <= Math.max(1, first.pageTotal); page++) {
      const res =
        page === 1 ? first : await search({ ...body, limit, page, include: ['distance_m', 'captured_at', 'heading'] });
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

  return { search, walk, idsOf, byDistanceFrom };
}
