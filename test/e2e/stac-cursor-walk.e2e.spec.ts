import fc from 'fast-check';
import { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import { buildWalkCatalogue, DENSE_CENTRE, seeded, SPARSE_BOX } from '../helpers/page-walk-catalogue';
import { resetPlaces } from '../helpers/places';
import { ImageryImportService } from '../../src/imagery/imagery-import.service';
import { createKey, feature, prismaClient, resetImagery, startApp } from '../helpers/test-app';

// The STAC item search's cursor as a property: every page of many generated searches (dense and sparse
// areas, datetime ranges, filters, both sort orders, GET and POST), walked by `next` links while an
// import adds records and deletes earlier arrivals beside each page: no record twice within one walk,
// and every record present for the whole walk seen (the catalogue's own records, which never leave).
const PUBLIC = 'https://imagery.example.test';
const ARRIVAL = 'Arrival walk';

interface Search {
  bbox?: [number, number, number, number];
  datetime?: string;
  filter?: string;
  sortby?: '+datetime';
  limit: number;
  byPost: boolean;
}

const year = fc.integer({ min: 2009, max: 2022 });
const datetime = fc.oneof(
  fc.tuple(year, year).map(([a, b]) => `${Math.min(a, b)}-01-01T00:00:00Z/${Math.max(a, b)}-12-31T23:59:59Z`),
  year.map((y) => `../${y}-06-05T00:00:00Z`),
  year.map((y) => `${y}-06-05T00:00:00Z/..`),
  fc.constant('2019-06-05T00:00:00Z'),
);
const denseBox = fc.double({ min: 0.0005, max: 0.003, noNaN: true }).map((d): Search['bbox'] => {
  const { lat, lon } = DENSE_CENTRE;
  return [lon - d, lat - d, lon + d, lat + d];
});
const sparseBox = fc.constant<Search['bbox']>([SPARSE_BOX.west, SPARSE_BOX.south, SPARSE_BOX.east, SPARSE_BOX.north]);
const filter = fc.oneof(
  fc.constantFrom('interactive = false', 'interactive = true'),
  fc.integer({ min: 0, max: 300 }).map((a) => `"view:azimuth" >= ${a} AND "view:azimuth" < ${a + 60}`),
);
const search: fc.Arbitrary<Search> = fc.record(
  {
    bbox: fc.oneof(denseBox, sparseBox),
    datetime,
    filter,
    sortby: fc.constant<'+datetime'>('+datetime'),
    limit: fc.integer({ min: 20, max: 80 }),
    byPost: fc.boolean(),
  },
  { requiredKeys: ['limit', 'byPost'] },
);

const asQuery = (s: Search) => {
  const q = new URLSearchParams({ limit: String(s.limit) });
  if (s.bbox) q.set('bbox', s.bbox.join(','));
  if (s.datetime) q.set('datetime', s.datetime);
  if (s.filter) q.set('filter', s.filter);
  if (s.sortby) q.set('sortby', s.sortby);
  return `/stac/search?${q}`;
};
const asBody = (s: Search) => ({
  limit: s.limit,
  ...(s.bbox && { bbox: s.bbox }),
  ...(s.datetime && { datetime: s.datetime }),
  ...(s.filter && { filter: s.filter, 'filter-lang': 'cql2-text' }),
  ...(s.sortby && { sortby: [{ field: 'properties.datetime', direction: 'asc' }] }),
});

describe('STAC cursor paging under a concurrent import (property)', () => {
  let app: NestExpressApplication;
  let key: string;
  const db = prismaClient();
  const rng = seeded(52);

  beforeAll(async () => {
    await resetImagery();
    await resetPlaces();
    await buildWalkCatalogue({ sparse: 600, dense: 900 });
    app = await startApp({ publicUrl: PUBLIC });
    key = await createKey(app);
  }, 120_000);
  afterAll(async () => {
    await app?.close();
    await resetImagery();
    await resetPlaces();
    await db.$disconnect();
  });

  const idsOf = (body: any): string[] => body.features.map((f: any) => f.id);
  const nextOf = (body: any) => body.links.find((l: any) => l.rel === 'next');
  const firstPage = (s: Search) =>
    s.byPost
      ? request(app.getHttpServer()).post('/stac/search').set('x-api-key', key).send(asBody(s)).expect(200)
      : request(app.getHttpServer()).get(asQuery(s)).set('x-api-key', key).expect(200);
  const following = (s: Search, link: any) =>
    s.byPost
      ? request(app.getHttpServer())
          .post('/stac/search')
          .set('x-api-key', key)
          .send({ ...asBody(s), ...link.body })
          .expect(200)
      : request(app.getHttpServer()).get(link.href.slice(PUBLIC.length)).set('x-api-key', key).expect(200);

  // Records at places and times the searches cover (in the dense disc and the sparse box, on the
  // catalogue's days and others), imported while a page is read; the round before's leave.
  let round = 0;
  async function arrive(): Promise<void> {
    const r = round++;
    const arrivals = Array.from({ length: 4 }, (_, i) => {
      const dense = i % 2 === 0;
      const lon = dense ? DENSE_CENTRE.lon + (rng() - 0.5) * 0.002 : SPARSE_BOX.west + rng() * 0.15;
      const lat = dense ? DENSE_CENTRE.lat + (rng() - 0.5) * 0.002 : SPARSE_BOX.south + rng() * 0.15;
      const day = i === 3 ? '2019-06-05' : `20${10 + Math.floor(rng() * 12)}-06-05`;
      return feature(`${ARRIVAL} ${r} ${i}, Vaduz`, { captured_at: day, interactive: rng() < 0.5 }, [lon, lat]);
    });
    async function* items() {
      for (const [position, f] of arrivals.entries()) yield { position, feature: f };
    }
    await app.get(ImageryImportService).importFeatures(items(), { source: null });
    await db.$executeRawUnsafe(`DELETE FROM imagery WHERE address LIKE '${ARRIVAL} ${r - 1} %'`);
  }

  // Every match of a search with no import beside it: the catalogue's own records (the arrivals gone).
  async function matchesAlone(s: Search): Promise<string[]> {
    await db.$executeRawUnsafe(`DELETE FROM imagery WHERE address LIKE '${ARRIVAL} %'`);
    const all: string[] = [];
    let res = await firstPage({ ...s, limit: 1000 });
    for (;;) {
      all.push(...idsOf(res.body));
      const next = nextOf(res.body);
      if (!next) return all;
      res = await following({ ...s, limit: 1000 }, next);
    }
  }

  it('sees every record present for the whole walk once, whatever the search', async () => {
    let walks = 0;
    await fc.assert(
      fc.asyncProperty(search, async (s) => {
        const present = await matchesAlone(s);
        const seen: string[] = [];
        let [res] = await Promise.all([firstPage(s), arrive()]);
        for (let pages = 1; ; pages++) {
          seen.push(...idsOf(res.body));
          const next = nextOf(res.body);
          if (!next) break;
          expect(pages).toBeLessThan(200);
          [res] = await Promise.all([following(s, next), arrive()]);
        }
        expect(seen.length - new Set(seen).size).toBe(0);
        const missing = present.filter((id) => !seen.includes(id));
        expect(missing).toEqual([]);
        walks++;
      }),
      { numRuns: 14, seed: 52, endOnFailure: true },
    );
    expect(walks).toBe(14);
  }, 600_000);
});
