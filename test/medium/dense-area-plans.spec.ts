import { PrismaClient } from '@prisma/client';
import { TestingModule } from '@nestjs/testing';
import { PrismaService } from '../../src/database/prisma.service';
import { areaCountCap, COUNT_CAP } from '../../src/search/search-limits';
import { SearchRepository } from '../../src/search/search.repository';
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
