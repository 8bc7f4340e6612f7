import { PrismaClient } from '@prisma/client';
import { SearchRepository } from '../../src/search/search.repository';
import { recordHistorySql } from '../../src/search/sql/record-history.sql';
import { explainAnalyzed, searchPlan, seedPlanCatalogue } from '../helpers/query-plans';
import { prismaClient, resetImagery } from '../helpers/test-app';

// include history reads, for each record of a page, the geography index around its point: a few rows
// per record however large the catalogue, never a scan of it.
describe('include history query plan', () => {
  let prisma: PrismaClient;

  beforeAll(async () => {
    await resetImagery();
    prisma = prismaClient();
    await seedPlanCatalogue(prisma, 50_000);
  }, 300_000);

  afterAll(async () => {
    await resetImagery();
    await prisma.$disconnect();
  });

  it('reads imagery_location_geog_idx once per record of the page', async () => {
    const page = await prisma.$queryRawUnsafe<
      Array<{ id: string; lon: number; lat: number; heading: number | null; interactive: boolean }>
    >(
      `SELECT id::text AS id, ST_X(location) AS lon, ST_Y(location) AS lat, heading, interactive
       FROM imagery ORDER BY id LIMIT 20`,
    );
    const nodes = await explainAnalyzed(prisma, recordHistorySql(page));
    expect(nodes.filter((n) => n.type === 'Seq Scan' && n.executed)).toEqual([]);
    const probes = nodes.filter((n) => n.on === 'imagery_location_geog_idx' && n.executed);
    expect(probes).toHaveLength(page.length);
    for (const p of probes) expect(p.rows).toBeLessThan(50);
  });

  it('newest_per_spot tests each candidate with one probe of the same index, not a scan', async () => {
    const plan = searchPlan({ query: '47.05, 9.5', newest_per_spot: true });
    const nodes = await explainAnalyzed(prisma, SearchRepository.nearestPageSql({ limit: 10, offset: 0 }, plan, 10));
    expect(nodes.filter((n) => n.type === 'Seq Scan' && n.executed)).toEqual([]);
    const probes = nodes.filter((n) => n.on === 'imagery_location_geog_idx' && n.executed);
    expect(probes.some((p) => p.loops >= 10)).toBe(true);
  });
});
