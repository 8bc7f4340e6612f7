import fc from 'fast-check';
import { TestingModule } from '@nestjs/testing';
import { PrismaService } from '../../src/database/prisma.service';
import { COUNT_CAP } from '../../src/search/paging/search-limits';
import { buildWalkCatalogue, DENSE_CENTRE, seeded, SPARSE_BOX, WalkCatalogue } from '../helpers/page-walk-catalogue';
import { resetPlaces } from '../helpers/places';
import { startSearchService } from '../helpers/search-service';
import { resetImagery } from '../helpers/test-app';

type Body = Record<string, unknown>;
interface Answer {
  data: Array<{ id: string }>;
  pageTotal: number;
  total?: number;
  total_exact?: boolean;
  interpretation?: { kind: string; lat?: number; lon?: number; radius_m?: number } | null;
}

// A square bbox of `halfM` metres each side of a point.
function boxAround(p: { lat: number; lon: number }, halfM: number): number[] {
  const dLat = halfM / 111_320;
  const dLon = halfM / (111_320 * Math.cos((p.lat * Math.PI) / 180));
  return [p.lon - dLon, p.lat - dLat, p.lon + dLon, p.lat + dLat];
}

// Property: walking pages 1..pageTotal of any search (pageTotal as each page reports it), no page is
// empty, no record repeats, and the walk ends where the matches do: the last page's total is exact
// and equals the records walked, and the page after it is empty. For a search around a point, the
// records walked are also those PostGIS finds within the radius; for a bbox, those within the box.
describe('search pages: a walk over every page of many searches', () => {
  let moduleRef: TestingModule;
  let search: (body: Body) => Promise<Answer>;
  let catalogue: WalkCatalogue;

  beforeAll(async () => {
    await resetImagery();
    await resetPlaces();
    catalogue = await buildWalkCatalogue();
    ({ moduleRef, search } = (await startSearchService()) as unknown as {
      moduleRef: TestingModule;
      search: typeof search;
    });
  }, 180_000);

  afterAll(async () => {
    await moduleRef?.close();
    await resetImagery();
    await resetPlaces();
  });

  // The searches, each made from a number in [0, 1) (which record, which point).
  const SEARCHES: Record<string, (u: number) => Body> = {
    exact: (u) => ({ query: catalogue.addresses[Math.floor(u * catalogue.addresses.length)] }),
    prefix: (u) => ({ query: ['Herr', 'Kirchs', 'Sta', 'Zoll', 'Lan'][Math.floor(u * 5)] }),
    common: (u) => ({ query: ['Staedtle', 'Vaduz', 'Staedtle Vaduz', 'Herrengasse'][Math.floor(u * 4)] }),
    misspelt: (u) => ({ query: ['Herengase', 'Kirchstrase Schan', 'Stadtle', 'Feldwg Trisen'][Math.floor(u * 4)] }),
    place: (u) => ({ query: ['San Francisco', 'New London', 'London', 'San Fran'][Math.floor(u * 4)] }),
    sparseCoordinates: (u) => {
      const r = seeded(Math.floor(u * 1e9));
      const lat = SPARSE_BOX.south + r() * (SPARSE_BOX.north - SPARSE_BOX.south);
      const lon = SPARSE_BOX.west + r() * (SPARSE_BOX.east - SPARSE_BOX.west);
      return { query: `${lat.toFixed(5)}, ${lon.toFixed(5)}`, near: { radius_m: 1_000 + Math.floor(u * 3_000) } };
    },
    denseCoordinates: (u) => ({
      query: `${(DENSE_CENTRE.lat + (u - 0.5) * 0.002).toFixed(6)}, ${DENSE_CENTRE.lon.toFixed(6)}`,
    }),
    denseNewest: () => ({ query: `${DENSE_CENTRE.lat}, ${DENSE_CENTRE.lon}`, sort: 'newest' }),
    nearOnly: (u) => ({ near: { ...DENSE_CENTRE, radius_m: 20 + Math.floor(u * 200) } }),
    // Read cell by cell when the circle covers few cells (cellWalkSql), sorted past that.
    nearSorted: (u) => ({
      near: { ...DENSE_CENTRE, radius_m: 20 + Math.floor(u * 400) },
      sort: u < 0.5 ? 'newest' : 'oldest',
    }),
    // Over a hundred cells, most of them empty or sparse: walked for the first pages, sorted past them.
    nearSortedWide: (u) => ({
      near: { ...DENSE_CENTRE, radius_m: 600 + Math.floor(u * 800) },
      sort: u < 0.5 ? 'oldest' : 'newest',
    }),
    denseBbox: (u) => ({
      bbox: boxAround(DENSE_CENTRE, 20 + Math.floor(u * 130)),
      sort: u < 0.5 ? 'newest' : 'oldest',
    }),
    sparseBbox: (u) => {
      const r = seeded(Math.floor(u * 1e9));
      const west = SPARSE_BOX.west + r() * 0.1;
      const south = SPARSE_BOX.south + r() * 0.1;
      return { bbox: [west, south, west + 0.01 + u * 0.04, south + 0.01 + u * 0.04], sort: 'newest' };
    },
    textNear: (u) => ({
      query: u < 0.5 ? 'Staedtle' : 'Vaduz',
      near: { ...DENSE_CENTRE, radius_m: 30 + Math.floor(u * 150) },
    }),
    region: (u) => (u < 0.5 ? { query: 'London', region: 'GB-ENG' } : { query: 'Herrengasse', region: 'LI' }),
  };

  // Records within the radius of the point the search was read as, by PostGIS directly.
  async function withinRadius(lat: number, lon: number, radiusM: number): Promise<number> {
    const [row] = await moduleRef
      .get(PrismaService)
      .$queryRawUnsafe<Array<{ n: number }>>(
        `SELECT count(*)::int AS n FROM imagery WHERE ST_DWithin(location::geography, ST_SetSRID(ST_MakePoint($1, $2), 4326)::geography, $3, false)`,
        lon,
        lat,
        radiusM,
      );
    return row.n;
  }

  // Records within a bbox, by PostGIS directly.
  async function withinBox([west, south, east, north]: number[]): Promise<number> {
    const [row] = await moduleRef
      .get(PrismaService)
      .$queryRawUnsafe<Array<{ n: number }>>(
        `SELECT count(*)::int AS n FROM imagery WHERE ST_Intersects(location, ST_MakeEnvelope($1, $2, $3, $4, 4326))`,
        west,
        south,
        east,
        north,
      );
    return row.n;
  }

  async function walk(body: Body, limit: number): Promise<void> {
    const ask = (page: number) => search({ ...body, limit, page, include: ['total', 'interpretation'] });
    const seen = new Set<string>();
    let last = await ask(1);
    let page = 1;
    while (page <= last.pageTotal) {
      const r = page === 1 ? last : await ask(page);
      expect({ page, pageTotal: r.pageTotal, records: r.data.length > 0 }).toEqual({
        page,
        pageTotal: r.pageTotal,
        records: true,
      });
      expect(r.data.length).toBeLessThanOrEqual(limit);
      expect(r.pageTotal).toBeGreaterThanOrEqual(page);
      for (const { id } of r.data) {
        expect(seen.has(id)).toBe(false);
        seen.add(id);
      }
      last = r;
      page++;
    }
    if (last.total! >= COUNT_CAP) return; // past the cap nothing further may be asked for
    expect({ total: last.total, exact: last.total_exact }).toEqual({ total: seen.size, exact: true });
    const after = await ask(page);
    expect(after.data).toEqual([]);
    const point = last.interpretation;
    if (point && point.kind === 'coordinates' && body.sort === undefined) {
      expect(seen.size).toBe(await withinRadius(point.lat!, point.lon!, point.radius_m!));
    }
    if (Array.isArray(body.bbox) && body.query === undefined) expect(seen.size).toBe(await withinBox(body.bbox));
    const near = body.near as { lat?: number; lon?: number; radius_m: number } | undefined;
    if (near?.lat !== undefined && body.query === undefined && body.bbox === undefined) {
      expect(seen.size).toBe(await withinRadius(near.lat, near.lon!, near.radius_m));
    }
  }

  it('holds for every kind of search at limit 10', async () => {
    for (const [name, make] of Object.entries(SEARCHES)) {
      for (const u of [0.05, 0.25, 0.45, 0.65, 0.85]) {
        const body = make(u);
        await walk(body, 10).catch((error: Error) => {
          throw new Error(`${name} ${JSON.stringify(body)}: ${error.message}`);
        });
      }
    }
  }, 300_000);

  it('holds for generated searches and page sizes', async () => {
    const searches = fc.record({
      name: fc.constantFrom(...Object.keys(SEARCHES)),
      u: fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
      limit: fc.constantFrom(3, 7, 25, 100),
    });
    await fc.assert(
      fc.asyncProperty(searches, async ({ name, u, limit }) => walk(SEARCHES[name](u), limit)),
      { numRuns: 40 },
    );
  }, 600_000);
});
