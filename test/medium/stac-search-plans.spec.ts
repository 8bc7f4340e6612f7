import { PrismaClient } from '@prisma/client';
import { TestingModule } from '@nestjs/testing';
import { PrismaService } from '../../src/database/prisma.service';
import { StacSearch } from '../../src/stac/stac-search-parameters';
import { MATCH_COUNT_CAP, searchPageSql } from '../../src/stac/stac.sql';
import { explainAnalyzed, PlanNode, seedPlanCatalogue } from '../helpers/query-plans';
import { startSearchService } from '../helpers/search-service';
import { prismaClient, resetImagery } from '../helpers/test-app';

// The STAC item search's statement on a catalogue of 50,000 records (a 0.2 degree grid around Vaduz,
// captures over 5,000 days): which index each kind of search reads, and how many rows.
describe('STAC item search query plans', () => {
  let prisma: PrismaClient;
  let moduleRef: TestingModule;
  const base: StacSearch = { dates: {}, limit: 10, direction: 'desc' };

  beforeAll(async () => {
    await resetImagery();
    prisma = prismaClient();
    await seedPlanCatalogue(prisma, 50_000);
    ({ moduleRef } = await startSearchService());
  }, 300_000);

  afterAll(async () => {
    await moduleRef?.close();
    await resetImagery();
    await prisma.$disconnect();
  });

  // On a request connection (its session options). The nodes that ran and read an index or the table.
  const reads = async (search: StacSearch) =>
    (await explainAnalyzed(moduleRef.get(PrismaService), searchPageSql({ ...base, ...search }))).filter(
      (n) => n.executed && n.on !== '' && n.on !== 'imagery_pkey',
    );
  const walk = (nodes: PlanNode[]) =>
    nodes.filter((n) => n.on === 'imagery_captured_at_idx' && n.type.startsWith('Index'));
  const deep = { direction: 'desc' as const, capturedAt: '2011-01-01', id: 'ffffffff-ffff-4fff-bfff-ffffffffffff' };
  const WHOLE: StacSearch['bbox'] = [9.4, 47.0, 9.7, 47.3];

  // More matches than numberMatched counts: the first MATCH_COUNT_CAP + 1 are counted, and the page of
  // 10 (and the one more that says a next page exists) is read from the (captured_at, id) btree in its
  // order, 11 rows, on the first page as far into the catalogue.
  it.each<[string, Partial<StacSearch>]>([
    ['everything', {}],
    ['a bbox holding the whole catalogue', { bbox: WHOLE }],
    ['a deep page', { cursor: deep }],
    ['a deep page of a bbox', { bbox: WHOLE, cursor: deep }],
    ['oldest first, a deep page', { direction: 'asc', cursor: { ...deep, direction: 'asc' } }],
    ['a prev page, deep', { cursor: { ...deep, before: true } }],
    ['oldest first, a prev page, deep', { direction: 'asc', cursor: { ...deep, direction: 'asc', before: true } }],
  ])('%s: counted to the cap, the page walked from the captured_at btree', async (_name, over) => {
    const nodes = await reads({ ...base, ...over });
    expect(walk(nodes).map((n) => n.rows)).toEqual([11]);
    expect(Math.max(...nodes.map((n) => n.rows))).toBe(MATCH_COUNT_CAP + 1);
  });

  // Fewer: all of them read by the index that fits (and counted exactly), the page sorted from them.
  it('a small bbox: its records from the location GiST index, no walk', async () => {
    const nodes = await reads({ ...base, bbox: [9.5, 47.05, 9.502, 47.052] });
    expect(nodes.map((n) => n.on)).toContain('imagery_location_idx');
    expect(walk(nodes)).toEqual([]);
    expect(Math.max(...nodes.map((n) => n.rows))).toBeLessThanOrEqual(22);
  });

  it('a polygon: the location GiST index, no walk', async () => {
    const ring = [
      [9.5, 47.05],
      [9.502, 47.05],
      [9.501, 47.052],
      [9.5, 47.05],
    ];
    const nodes = await reads({ ...base, intersects: { type: 'Polygon', coordinates: [ring] } });
    expect(nodes.map((n) => n.on)).toContain('imagery_location_idx');
    expect(walk(nodes)).toEqual([]);
  });

  it('a datetime range of 900 records: read from the captured_at btree by range, not walked', async () => {
    const nodes = await reads({ ...base, dates: { from: '2015-01-01', to: '2015-03-31' } });
    expect(nodes.map((n) => n.on)).toContain('imagery_captured_at_idx');
    expect(walk(nodes)).toEqual([]);
    expect(Math.max(...nodes.map((n) => n.rows))).toBe(900);
  });
});
