import { Prisma, PrismaClient } from '@prisma/client';
import { TestingModule } from '@nestjs/testing';
import { PrismaService } from '../../src/database/prisma.service';
import { areaCountCap, COUNT_CAP } from '../../src/search/paging/search-limits';
import { SearchRepository } from '../../src/search/search.repository';
import { CELLS_PER_DEGREE } from '../../src/search/sql/cell-walk.sql';
import { sortedPageSql } from '../../src/search/sql/page-strategies.sql';
import { denseBlockSql, explainAnalyzed, searchPlan, seedPlanCatalogue } from '../helpers/query-plans';
import { startSearchService } from '../helpers/search-service';
import { prismaClient, resetImagery } from '../helpers/test-app';

// A coordinate search at a point in a dense block (thousands of records within its radius, as real
// imagery is in a city): its count reads a few pages past the page, not every record in the circle.
describe('search query plans: a dense block', () => {
  let prisma: PrismaClient;
  let moduleRef: TestingModule;
  let search: Awaited<ReturnType<typeof startSearchService>>['search'];
  const CENTRE = { lat: 47.1391, lon: 9.5209 };
  const DENSE = 20_000;
  const query = `${CENTRE.lat}, ${CENTRE.lon}`;

  beforeAll(async () => {
    await resetImagery();
    prisma = prismaClient();
    await seedPlanCatalogue(prisma, 50_000);
    const dense = denseBlockSql(DENSE, CENTRE, 200);
    // One session, so the seed holds for the insert: the same block on every run.
    await prisma.$transaction([
      prisma.$queryRawUnsafe('SELECT setseed(0.36)::text AS seeded'),
      prisma.$executeRawUnsafe(dense.text, ...dense.values),
    ]);
    await prisma.$executeRawUnsafe('ANALYZE imagery');
    ({ moduleRef, search } = await startSearchService());
  }, 300_000);

  afterAll(async () => {
    await moduleRef?.close();
    await resetImagery();
    await prisma.$disconnect();
  });

  // Rows the busiest node of a plan produced (a bitmap index scan: the row ids it listed).
  // EXPLAINed on a request connection (its session options: no parallel workers).
  const rowsRead = async (sql: Parameters<typeof explainAnalyzed>[1]) => {
    const nodes = await explainAnalyzed(moduleRef.get(PrismaService), sql);
    return Math.max(...nodes.map((n) => n.rows));
  };

  it('counts a few pages past the page read, where counting to COUNT_CAP read over 10,000 rows', async () => {
    const plan = searchPlan({ query });
    const page = { limit: 10, offset: 0 };
    expect(await rowsRead(SearchRepository.areaCountSql(plan, COUNT_CAP))).toBeGreaterThan(COUNT_CAP);
    expect(await rowsRead(SearchRepository.areaCountSql(plan, areaCountCap(page)))).toBeLessThanOrEqual(
      areaCountCap(page) + 1,
    );
    // The page: the k nearest from the geography index, then the rows up to the k-th distance; not
    // every record in the circle's box, sorted (what the box led the planner to).
    expect(await rowsRead(SearchRepository.nearestPageSql(page, plan, 10))).toBeLessThanOrEqual(20);
  });

  it('reads a deep page nearest first in one walk: the records before it at most twice, the same page', async () => {
    const plan = searchPlan({ query });
    const window = { limit: 10, offset: 490 };
    const cap = areaCountCap(window);
    const nodes = await explainAnalyzed(
      moduleRef.get(PrismaService),
      SearchRepository.nearestWalkSql(window, plan, cap),
    );
    const read = (ns: typeof nodes) => ns.filter((n) => n.on.startsWith('imagery')).reduce((a, n) => a + n.rows, 0);
    // The circle's first cap + 1 rows (it holds more), the walk's cap + 1 and the page's rows by id;
    // counting, then walking to the page's last distance and reading every row up to it again, read
    // the rows before the page three times.
    expect(read(nodes)).toBeLessThanOrEqual(2 * (cap + 1) + window.limit);
    const before = [
      ...(await explainAnalyzed(moduleRef.get(PrismaService), SearchRepository.areaCountSql(plan, cap))),
      ...(await explainAnalyzed(moduleRef.get(PrismaService), SearchRepository.nearestPageSql(window, plan, 500))),
    ];
    expect(read(before)).toBeGreaterThan(cap + 2 * window.offset);
    const repository = moduleRef.get(SearchRepository);
    const walked = await repository.searchArea(window, plan);
    const reread = await prisma.$queryRawUnsafe<Array<{ id: string }>>(
      SearchRepository.nearestPageSql(window, plan, 500).text,
      ...SearchRepository.nearestPageSql(window, plan, 500).values,
    );
    expect(walked).toMatchObject({ total: cap, totalExact: false });
    expect(walked.rows.map((r) => r.id)).toEqual(reread.map((r) => r.id));
  });

  it('reads only the records of a circle that holds few, however far the next ones lie', async () => {
    // Five records 20 m apart, alone in the Atlantic: the nearest others are in the block, thousands
    // of kilometres away. Walking to cap + 1 records regardless of the radius read 101 rows from
    // across the ocean for a page of five.
    const at = { lat: 30.0001, lon: -40.0001 };
    await prisma.$executeRawUnsafe(`
      INSERT INTO imagery (id, address, captured_at, heading, interactive, image_url, location)
      SELECT gen_random_uuid(), 'Alone ' || g, DATE '2020-01-01', 0, false, 'https://img.test/a.jpg',
             ST_SetSRID(ST_MakePoint(${at.lon} + g * 0.0002, ${at.lat}), 4326)
      FROM generate_series(1, 5) g`);
    try {
      const plan = searchPlan({ query: `${at.lat}, ${at.lon}` });
      const window = { limit: 10, offset: 0 };
      const nodes = await explainAnalyzed(
        moduleRef.get(PrismaService),
        SearchRepository.nearestWalkSql(window, plan, areaCountCap(window)),
      );
      const read = nodes.filter((n) => n.on.startsWith('imagery')).reduce((a, n) => a + n.rows, 0);
      expect(read).toBeLessThanOrEqual(5 + 5);
      const r = await search({ query: `${at.lat}, ${at.lon}`, include: ['total'] });
      expect(r.data.map((d) => d.address)).toEqual(['Alone 1', 'Alone 2', 'Alone 3', 'Alone 4', 'Alone 5']);
      expect(r.pageTotal).toBe(1);
    } finally {
      await prisma.$executeRawUnsafe(`DELETE FROM imagery WHERE address LIKE 'Alone %'`);
    }
  });

  it('pages records tied at one point (more than the walk reads) each once, nearest first', async () => {
    const at = { lat: 47.25, lon: 9.7 };
    const tied = 150;
    await prisma.$executeRawUnsafe(`
      INSERT INTO imagery (id, address, captured_at, heading, interactive, image_url, location)
      SELECT gen_random_uuid(), 'Tied ' || g, DATE '2020-01-01', 0, false, 'https://img.test/t.jpg',
             ST_SetSRID(ST_MakePoint(${at.lon} + (g / ${tied}) * 1e-5, ${at.lat}), 4326)
      FROM generate_series(1, ${tied + 30}) g`);
    try {
      const seen: string[] = [];
      let pageTotal = 1;
      for (let p = 1; p <= pageTotal; p++) {
        const r = await search({ query: `${at.lat}, ${at.lon}`, near: { radius_m: 100 }, page: p, include: ['total'] });
        expect(r.data.length).toBeGreaterThan(0);
        seen.push(...r.data.map((d) => d.id));
        pageTotal = r.pageTotal;
      }
      expect(seen).toHaveLength(tied + 30);
      expect(new Set(seen).size).toBe(tied + 30);
    } finally {
      await prisma.$executeRawUnsafe(`DELETE FROM imagery WHERE address LIKE 'Tied %'`);
    }
  });

  // A box of 300 x 300 m over the block (about 14,000 of its records), newest first.
  const dLat = 150 / 111_320;
  const dLon = 150 / (111_320 * Math.cos((CENTRE.lat * Math.PI) / 180));
  const bbox: [number, number, number, number] = [
    CENTRE.lon - dLon,
    CENTRE.lat - dLat,
    CENTRE.lon + dLon,
    CENTRE.lat + dLat,
  ];

  it('counts a box a few pages past the page too, where counting to COUNT_CAP read over 10,000 rows', async () => {
    const plan = searchPlan({ bbox, sort: 'newest' });
    // The count is the statement's first Limit (the page's comes after it).
    const counted = async (window: { limit: number; offset: number }) => {
      const nodes = await explainAnalyzed(moduleRef.get(PrismaService), SearchRepository.areaSql(window, plan));
      return nodes.find((n) => n.type === 'Limit')!.rows;
    };
    expect(await counted({ limit: 10, offset: 0 })).toBe(areaCountCap({ limit: 10, offset: 0 }) + 1);
    expect(await counted({ limit: 100, offset: 4_900 })).toBe(areaCountCap({ limit: 100, offset: 4_900 }) + 1);
    expect(await counted({ limit: 100, offset: COUNT_CAP - 100 })).toBe(COUNT_CAP + 1);
  });

  // Newest or oldest first, a box holding more than it counts is read cell by cell
  // (imagery_cell_captured_at_idx): each covered cell's first offset + limit, not all ~14,000 records
  // in the box (what the geometry index and a sort read when the planner takes the box for a row or
  // two, as it does on a world-wide catalogue). The same page as sorting the box, ties included.
  // The page as it was read before the cell walk: every match in the box, sorted.
  const sortedBox = (window: { limit: number; offset: number }, plan: ReturnType<typeof searchPlan>) =>
    sortedPageSql(window, plan, {
      match: null,
      score: Prisma.sql`0`,
      codeMatch: Prisma.sql`false`,
      cap: areaCountCap(window),
    });
  const ids = async (sql: Prisma.Sql) =>
    (await prisma.$queryRawUnsafe<Array<{ id: string }>>(sql.text, ...sql.values)).map((r) => r.id);

  it('pages a dense box newest or oldest first cell by cell: the rows read follow the page, not the box', async () => {
    const [x0, x1] = [bbox[0], bbox[2]].map((d) => Math.floor(d * CELLS_PER_DEGREE));
    const [y0, y1] = [bbox[1], bbox[3]].map((d) => Math.floor(d * CELLS_PER_DEGREE));
    const cells = (x1 - x0 + 1) * (y1 - y0 + 1);
    for (const sort of ['newest', 'oldest'] as const) {
      const plan = searchPlan({ bbox, sort });
      for (const window of [
        { limit: 10, offset: 0 },
        { limit: 10, offset: 490 },
      ]) {
        const sql = SearchRepository.areaSql(window, plan);
        const nodes = await explainAnalyzed(moduleRef.get(PrismaService), sql);
        // The page's nodes (after the count): each cell's walk, nothing else read from imagery.
        const page = nodes.slice(nodes.findIndex((n) => n.type === 'Append'));
        const read = page.filter((n) => n.on.startsWith('imagery') && n.executed);
        expect(read.map((n) => n.on)).toEqual(['imagery_cell_captured_at_idx']);
        expect(read[0].loops).toBe(cells);
        expect(read[0].rows * read[0].loops).toBeLessThanOrEqual(cells * (window.offset + window.limit));
        expect(await ids(sql)).toEqual(await ids(sortedBox(window, plan)));
      }
    }
  });

  it('pages a dense box with other filters cell by cell, and a box holding fewer than it counts from the counted rows', async () => {
    const window = { limit: 10, offset: 0 };
    for (const sort of ['newest', 'oldest'] as const) {
      const filtered = searchPlan({ bbox, sort, interactive: true, captured_after: '2018-01-01', facing: 'N' });
      const nodes = await explainAnalyzed(moduleRef.get(PrismaService), SearchRepository.areaSql(window, filtered));
      expect(nodes.some((n) => n.on === 'imagery_cell_captured_at_idx' && n.executed)).toBe(true);
      const page = await ids(SearchRepository.areaSql(window, filtered));
      expect(page).toHaveLength(10);
      expect(page).toEqual(await ids(sortedBox(window, filtered)));
      // 10 x 10 m at the centre: a dozen records, read once (by the count) and sorted.
      const d = 5 / 111_320;
      const small = searchPlan({
        bbox: [CENTRE.lon - 2 * d, CENTRE.lat - d, CENTRE.lon + 2 * d, CENTRE.lat + d],
        sort,
      });
      const read = (
        await explainAnalyzed(moduleRef.get(PrismaService), SearchRepository.areaSql(window, small))
      ).filter((n) => n.on.startsWith('imagery') && n.executed);
      expect(read.map((n) => n.on)).toEqual(['imagery_location_idx']);
      expect(read[0].rows).toBeLessThanOrEqual(areaCountCap(window));
      expect(await ids(SearchRepository.areaSql(window, small))).toEqual(await ids(sortedBox(window, small)));
    }
  });

  it("says a box's total is a lower bound, and every page up to pageTotal has records", async () => {
    const first = await search({ bbox, sort: 'newest', include: ['total'] });
    expect(first).toMatchObject({ total: areaCountCap({ limit: 10, offset: 0 }), total_exact: false, pageTotal: 10 });
    expect(first.data).toHaveLength(10);
    const last = await search({ bbox, sort: 'newest', page: first.pageTotal, include: ['total'] });
    expect(last.data).toHaveLength(10);
    expect(last.pageTotal).toBeGreaterThan(first.pageTotal);
    const deepest = await search({ bbox, sort: 'oldest', limit: 100, page: COUNT_CAP / 100, include: ['total'] });
    expect(deepest).toMatchObject({ total: COUNT_CAP, total_exact: false, pageTotal: COUNT_CAP / 100 });
    expect(deepest.data).toHaveLength(100);
  });

  it('says the total is a lower bound, and every page up to pageTotal has records', async () => {
    const first = await search({ query, include: ['total'] });
    expect(first).toMatchObject({ total: areaCountCap({ limit: 10, offset: 0 }), total_exact: false, pageTotal: 10 });
    const last = await search({ query, page: first.pageTotal, include: ['total'] });
    expect(last.data).toHaveLength(10);
    expect(last.pageTotal).toBeGreaterThan(first.pageTotal); // the next pages stay reachable
    const deepest = await search({ query, limit: 100, page: COUNT_CAP / 100, include: ['total'] });
    expect(deepest).toMatchObject({ total: COUNT_CAP, total_exact: false, pageTotal: COUNT_CAP / 100 });
    expect(deepest.data).toHaveLength(100);
  });
});
