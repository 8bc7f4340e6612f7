import { Prisma, PrismaClient } from '@prisma/client';
import { buildTextQuery } from '../../src/search/query/text-query';
import { COUNT_CAP, SearchRepository } from '../../src/search/search.repository';
import { NEAREST_CANDIDATES } from '../../src/search/sql/area-search.sql';
import { correctQuery } from '../../src/search/vocabulary/typo-correction';
import { PrismaService } from '../../src/database/prisma.service';
import { explain, explainAnalyzed, searchPlan, seedPlanCatalogue } from '../helpers/query-plans';
import { prismaClient, resetImagery, testConfig } from '../helpers/test-app';
import { areaCountCap } from '../../src/search/paging/search-limits';

// Every query shape the search sends, EXPLAINed on 100,000 rows (and a 100,000-word vocabulary):
// enough that the planner prefers an index whenever one fits.
describe('search query plans: indexes', () => {
  let prisma: PrismaClient;
  const ROWS = 100_000;
  const page = { limit: 10, offset: 0 };

  beforeAll(async () => {
    await resetImagery();
    prisma = prismaClient();
    await seedPlanCatalogue(prisma, ROWS);
  }, 300_000); // 100,000 rows through five indexes: seconds on a server, longer on a busy or embedded one

  afterAll(async () => {
    await resetImagery();
    await prisma.$disconnect();
  });

  const plan = (sql: Prisma.Sql) => explain(prisma, sql);

  const noSeqScan = (text: string) => expect(text).not.toMatch(/Seq Scan on imagery/);

  it('full text with abbreviations uses the tsvector GIN index', async () => {
    const text = await plan(SearchRepository.fullTextSql(buildTextQuery('Kirchstr 42 Vaduz')!, page));
    expect(text).toContain('imagery_address_tsv_idx');
    noSeqScan(text);
  });

  it('a query that may be a location code also probes the code index', async () => {
    const text = await plan(SearchRepository.fullTextSql(buildTextQuery('LI-9490-35')!, page));
    expect(text).toContain('imagery_address_tsv_idx');
    expect(text).toContain('imagery_address_code_idx');
    noSeqScan(text);
  });

  it('a spelling-corrected query uses the tsvector GIN index', async () => {
    const corrected = correctQuery(
      buildTextQuery('Kirchstrase 42 Vadus')!,
      new Map([
        ['kirchstrase', ['kirchstrasse', 'kirchstrassen']],
        ['vadus', ['vaduz']],
      ]),
    )!;
    const text = await plan(SearchRepository.fullTextSql(corrected, page));
    expect(text).toContain('imagery_address_tsv_idx');
    noSeqScan(text);
  });

  it('typo fallback uses the trigram GIN index', async () => {
    const text = await plan(SearchRepository.fuzzySql(buildTextQuery('Kirchstrase 42 Vadus')!, page));
    expect(text).toContain('imagery_address_norm_trgm_idx');
    noSeqScan(text);
  });

  it('vocabulary lookups walk the trigram GiST index nearest first (KNN)', async () => {
    const text = await plan(SearchRepository.wordCandidatesSql(['kirchstrase', 'vadus', 'herengase']));
    expect(text).toMatch(/Index Scan using imagery_words_trgm_idx on imagery_words/);
    expect(text).toMatch(/Order By: \(word <-> q\.typed\)/);
    expect(text).not.toMatch(/Seq Scan on imagery_words/);
  });

  it('coordinates and near: counted from the box around the circle in the geometry GiST index', async () => {
    for (const body of [{ query: '47.1, 9.5' }, { near: { lat: 47.1, lon: 9.5, radius_m: 300 } }]) {
      const text = await plan(SearchRepository.areaCountSql(searchPlan(body), areaCountCap(page)));
      expect(text).toContain('imagery_location_idx');
      noSeqScan(text);
    }
  });

  it('nearest first, in a small circle: the k-th distance and the page both come from GiST indexes', async () => {
    const text = await plan(
      SearchRepository.nearestPageSql(page, searchPlan({ near: { lat: 47.1, lon: 9.5, radius_m: 300 } }), 10),
    );
    expect(text).toMatch(/imagery_location_idx|imagery_location_geog_idx/);
    noSeqScan(text);
  });

  it('nearest first, in a circle holding the whole catalogue: a KNN walk of the geography index', async () => {
    const wide = searchPlan({ near: { lat: 47.1, lon: 9.5, radius_m: 50_000 } });
    const text = await plan(SearchRepository.nearestPageSql({ limit: 10, offset: 90 }, wide, 100));
    expect(text).toMatch(
      /Index Scan using imagery_location_geog_idx on imagery[\s\S]*Order By: \(\(location\)::geography <->/,
    );
    noSeqScan(text);
    // Counting may read the table in any order, but stops a few pages past the page read.
    const cap = areaCountCap({ limit: 10, offset: 90 });
    expect(cap).toBeLessThan(COUNT_CAP);
    expect(await plan(SearchRepository.areaCountSql(wide, cap))).toMatch(new RegExp(`Limit .*rows=${cap + 1} `));
  });

  it('the nearest record outside the radius: a KNN walk of the geography index that reads at most NEAREST_CANDIDATES rows', async () => {
    // A point 100 km from the grid, and filters that let through one record in three, or none at all.
    const point = { lat: 46.2, lon: 8.6 };
    for (const filters of [
      { circles: [] },
      { circles: [], interactive: true },
      { circles: [], capturedAfter: '2100-01-01', region: 'LI' },
    ]) {
      const sql = SearchRepository.nearestRecordSql(point, filters);
      const text = await plan(sql);
      expect(text).toMatch(
        /Index Scan using imagery_location_geog_idx on imagery[\s\S]*Order By: \(\(location\)::geography <->/,
      );
      noSeqScan(text);
      const scans = (await explainAnalyzed(prisma, sql)).filter((n) => /Scan/.test(n.type));
      expect(scans.filter((s) => s.on === 'imagery_location_geog_idx')).toHaveLength(1);
      for (const scan of scans) expect(scan.rows).toBeLessThanOrEqual(NEAREST_CANDIDATES);
    }
    // The answers: a record at the grid's south-west corner (47.0, 9.4), about 100 km away; none at all.
    const service = new PrismaService(testConfig());
    try {
      const repo = new SearchRepository(service);
      const nearest = await repo.nearestRecord(point, { circles: [] });
      expect(nearest).toMatchObject({ lat: expect.closeTo(47.0, 2), lon: expect.closeTo(9.4, 2) });
      expect(nearest!.distance).toBeGreaterThan(95_000);
      expect(nearest!.distance).toBeLessThan(110_000);
      expect(await repo.nearestRecord(point, { circles: [], capturedAfter: '2100-01-01' })).toBeNull();
    } finally {
      await service.onModuleDestroy();
    }
  });

  it('looking_at uses the geometry GiST index', async () => {
    const body = { looking_at: { lat: 47.1, lon: 9.5, fov_deg: 60, radius_m: 200 } };
    for (const sql of [
      SearchRepository.areaCountSql(searchPlan(body), areaCountCap(page)),
      SearchRepository.nearestPageSql(page, searchPlan(body), 10),
    ]) {
      const text = await plan(sql);
      expect(text).toMatch(/imagery_location_idx|imagery_location_geog_idx/);
      noSeqScan(text);
    }
  });

  it('a small bbox uses the geometry GiST index; a wide one walks the date index', async () => {
    const small = await plan(
      SearchRepository.areaSql(page, searchPlan({ bbox: [9.45, 47.05, 9.452, 47.052], sort: 'newest' })),
    );
    expect(small).toContain('imagery_location_idx');
    noSeqScan(small);
    // The whole world: the page comes from the date index in order; counting may read rows in
    // any order, but stops a few pages past the page (areaCountCap + 1 rows).
    const wide = await plan(SearchRepository.areaSql(page, searchPlan({ bbox: [-180, -90, 180, 90], sort: 'newest' })));
    expect(wide).toMatch(/Index Scan Backward using imagery_captured_at_idx/);
    expect(wide).toMatch(new RegExp(`Limit .*rows=${areaCountCap(page) + 1} `));
  });

  it('a bbox across the antimeridian uses the geometry GiST index for both halves', async () => {
    const text = await plan(SearchRepository.areaSql(page, searchPlan({ bbox: [179.5, -20, -179.5, -10] })));
    expect(text.match(/imagery_location_idx/g)?.length).toBeGreaterThanOrEqual(2);
    noSeqScan(text);
  });

  it('text with near, dates and headings still starts from an index', async () => {
    const body = {
      query: 'Kirchstrasse Vaduz',
      near: { lat: 47.1, lon: 9.5, radius_m: 500 },
      captured_after: '2012-01-01',
      facing: 'N' as const,
    };
    const text = await plan(SearchRepository.fullTextSql(buildTextQuery(body.query)!, page, searchPlan(body)));
    expect(text).toMatch(/imagery_address_tsv_idx|imagery_location_idx/);
    noSeqScan(text);
    const newest = await plan(
      SearchRepository.fullTextSql(
        buildTextQuery('Kirchstrasse 42')!,
        page,
        searchPlan({ query: 'x', sort: 'newest' }),
      ),
    );
    expect(newest).toContain('imagery_address_tsv_idx');
    noSeqScan(newest);
  });
});
