import { Prisma, PrismaClient } from '@prisma/client';
import { interpretQuery } from '../../src/search/query-interpretation';
import { planSearch, SearchPlan } from '../../src/search/search-filters';
import { SearchRequestDto } from '../../src/search/search.dto';
import { buildTextQuery } from '../../src/search/search-query';
import { COUNT_CAP, SCORE_CAP, SearchRepository } from '../../src/search/search.repository';
import { correctQuery } from '../../src/search/typo-correction';
import { shapeTextQuery } from '../../src/search/word-statistics';
import { PrismaService } from '../../src/database/prisma.service';
import { prismaClient, resetImagery, testConfig } from '../helpers/test-app';

// Every query shape the search sends, EXPLAINed on 100,000 rows (and a 100,000-word vocabulary):
// enough that the planner prefers an index whenever one fits.
describe('search query plans', () => {
  let prisma: PrismaClient;
  const ROWS = 100_000;
  const page = { limit: 10, offset: 0 };

  beforeAll(async () => {
    await resetImagery();
    prisma = prismaClient();
    // A 0.2 x 0.2 degree grid around Vaduz; every 100th address is a location code.
    await prisma.$executeRawUnsafe(`
      INSERT INTO imagery (id, address, captured_at, heading, interactive, image_url, location)
      SELECT gen_random_uuid(),
             CASE WHEN g % 100 = 0 THEN 'LI-' || (9000 + g % 997) || '-' || g ELSE
             (ARRAY['Herrengasse','Landstrasse','Kirchstrasse','Bahnhofstrasse','Poststrasse','Feldweg','Im Ganser','Zollstrasse'])[1 + g % 8]
               || ' ' || (g % 500) || ', ' || (9000 + g % 997) || ' '
               || (ARRAY['Vaduz','Schaan','Balzers','Triesen','Eschen','Mauren','Ruggell','Gamprin','Planken','Nendeln'])[1 + (g / 8) % 10]
               || ' ' || substr(md5(g::text), 1, 8) END,
             DATE '2010-01-01' + (g % 5000), (g * 7) % 360, g % 3 = 0, 'https://img.test/' || g || '.jpg',
             ST_SetSRID(ST_MakePoint(9.4 + (g % 1000) / 5000.0, 47.0 + (g / 1000) / 500.0), 4326)
      FROM generate_series(1, ${ROWS}) g`);
    // The vocabulary as a large catalogue would have it: 100,000 distinct letter-only words.
    await prisma.$executeRawUnsafe(`
      INSERT INTO imagery_words (word)
      SELECT translate(substr(md5(g::text), 1, 10), '0123456789', 'ghijklmnop') FROM generate_series(1, ${ROWS}) g
      ON CONFLICT DO NOTHING`);
    await prisma.$executeRawUnsafe('ANALYZE imagery');
    await prisma.$executeRawUnsafe('ANALYZE imagery_words');
  }, 300_000); // 100,000 rows through five indexes: seconds on a server, longer on a busy or embedded one

  afterAll(async () => {
    await resetImagery();
    await prisma.$disconnect();
  });

  // EXPLAIN exactly the statement the repository sends.
  async function plan(sql: Prisma.Sql): Promise<string> {
    const rows = await prisma.$queryRawUnsafe<Array<{ 'QUERY PLAN': string }>>(`EXPLAIN ${sql.text}`, ...sql.values);
    return rows.map((r) => r['QUERY PLAN']).join('\n');
  }

  function searchPlan(body: Partial<SearchRequestDto>): SearchPlan {
    const request = Object.assign(new SearchRequestDto(), body);
    return planSearch(request, request.query === undefined ? null : interpretQuery(request.query, request.near)).plan;
  }

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
    const corrected = correctQuery(buildTextQuery('Kirchstrase 42 Vadus')!, new Map([
      ['kirchstrase', ['kirchstrasse', 'kirchstrassen']],
      ['vadus', ['vaduz']],
    ]))!;
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
      const text = await plan(SearchRepository.areaCountSql(searchPlan(body)));
      expect(text).toContain('imagery_location_idx');
      noSeqScan(text);
    }
  });

  it('nearest first, in a small circle: the k-th distance and the page both come from GiST indexes', async () => {
    const text = await plan(SearchRepository.nearestPageSql(page, searchPlan({ near: { lat: 47.1, lon: 9.5, radius_m: 300 } }), 10));
    expect(text).toMatch(/imagery_location_idx|imagery_location_geog_idx/);
    noSeqScan(text);
  });

  it('nearest first, in a circle holding the whole catalogue: a KNN walk of the geography index', async () => {
    const wide = searchPlan({ near: { lat: 47.1, lon: 9.5, radius_m: 50_000 } });
    const text = await plan(SearchRepository.nearestPageSql({ limit: 10, offset: 90 }, wide, 100));
    expect(text).toMatch(/Index Scan using imagery_location_geog_idx on imagery[\s\S]*Order By: \(\(location\)::geography <->/);
    noSeqScan(text);
    // Counting may read the table in any order, but stops after COUNT_CAP + 1 rows.
    expect(await plan(SearchRepository.areaCountSql(wide))).toMatch(new RegExp(`Limit .*rows=${COUNT_CAP + 1} `));
  });

  it('looking_at uses the geometry GiST index', async () => {
    const body = { looking_at: { lat: 47.1, lon: 9.5, fov_deg: 60, radius_m: 200 } };
    for (const sql of [SearchRepository.areaCountSql(searchPlan(body)), SearchRepository.nearestPageSql(page, searchPlan(body), 10)]) {
      const text = await plan(sql);
      expect(text).toMatch(/imagery_location_idx|imagery_location_geog_idx/);
      noSeqScan(text);
    }
  });

  it('a small bbox uses the geometry GiST index; a wide one walks the date index', async () => {
    const small = await plan(SearchRepository.areaSql(page, searchPlan({ bbox: [9.45, 47.05, 9.452, 47.052], sort: 'newest' })));
    expect(small).toContain('imagery_location_idx');
    noSeqScan(small);
    // The whole world: the page comes from the date index in order; counting may read rows in
    // any order, but stops after COUNT_CAP + 1 of them.
    const wide = await plan(SearchRepository.areaSql(page, searchPlan({ bbox: [-180, -90, 180, 90], sort: 'newest' })));
    expect(wide).toMatch(/Index Scan Backward using imagery_captured_at_idx/);
    expect(wide).toMatch(new RegExp(`Limit .*rows=${COUNT_CAP + 1} `));
  });

  it('a bbox across the antimeridian uses the geometry GiST index for both halves', async () => {
    const text = await plan(SearchRepository.areaSql(page, searchPlan({ bbox: [179.5, -20, -179.5, -10] })));
    expect(text.match(/imagery_location_idx/g)?.length).toBeGreaterThanOrEqual(2);
    noSeqScan(text);
  });

  it('text with near, dates and headings still starts from an index', async () => {
    const body = { query: 'Kirchstrasse Vaduz', near: { lat: 47.1, lon: 9.5, radius_m: 500 }, captured_after: '2012-01-01', facing: 'N' as const };
    const text = await plan(SearchRepository.fullTextSql(buildTextQuery(body.query)!, page, searchPlan(body)));
    expect(text).toMatch(/imagery_address_tsv_idx|imagery_location_idx/);
    noSeqScan(text);
    const newest = await plan(SearchRepository.fullTextSql(buildTextQuery('Kirchstrasse 42')!, page, searchPlan({ query: 'x', sort: 'newest' })));
    expect(newest).toContain('imagery_address_tsv_idx');
    noSeqScan(newest);
  });

  it('stops counting at the cap and says so; pages up to the cap still come nearest first', async () => {
    // As the request path runs: through PrismaService's reader pool.
    const service = new PrismaService(testConfig());
    const prismaRepo = new SearchRepository(service);
    try {
      const widePlan = searchPlan({ near: { lat: 47.1, lon: 9.5, radius_m: 50_000 } });
      const wide = await prismaRepo.searchArea({ limit: 5, offset: 0 }, widePlan);
      expect(wide).toMatchObject({ total: COUNT_CAP, totalExact: false });
      expect(wide.rows).toHaveLength(5);
      const deepest = await prismaRepo.searchArea({ limit: 100, offset: COUNT_CAP - 100 }, widePlan);
      expect(deepest.rows).toHaveLength(100);
      const distances = deepest.rows.map((r) => r.distance!);
      expect(distances).toEqual([...distances].sort((a, b) => a - b));
      expect(distances[0]).toBeGreaterThanOrEqual(wide.rows[4].distance!);
      const narrow = await prismaRepo.searchArea({ limit: 5, offset: 0 }, searchPlan({ near: { lat: 47.1, lon: 9.5, radius_m: 300 } }));
      expect(narrow.totalExact).toBe(true);
      expect(narrow.total).toBeGreaterThan(0);
      expect(narrow.total).toBeLessThan(COUNT_CAP);
    } finally {
      await service.onModuleDestroy();
    }
  });

  // Rows each node of an EXPLAIN (ANALYZE, FORMAT JSON) plan produced, bitmap index scans (which
  // list every matching row id, not rows) aside; and whether a node ran at all.
  async function analyzed(sql: Prisma.Sql): Promise<Array<{ type: string; rows: number; executed: boolean }>> {
    const [row] = await prisma.$queryRawUnsafe<Array<{ 'QUERY PLAN': any }>>(`EXPLAIN (ANALYZE, FORMAT JSON) ${sql.text}`, ...sql.values);
    const out: Array<{ type: string; rows: number; executed: boolean }> = [];
    const walk = (n: any) => {
      out.push({ type: n['Node Type'], rows: n['Actual Rows'], executed: n['Actual Loops'] > 0 });
      for (const child of n.Plans ?? []) walk(child);
    };
    walk(row['QUERY PLAN'][0].Plan);
    return out;
  }

  async function pagesAgree(repo: SearchRepository, query: ReturnType<typeof buildTextQuery>, offset: number) {
    const first = await repo.searchFullText(query!, { limit: 100, offset });
    const second = await repo.searchFullText(query!, { limit: 100, offset: offset + 100 });
    const both = await repo.searchFullText(query!, { limit: 200, offset });
    expect(both.rows.map((r) => r.id)).toEqual([...first.rows, ...second.rows].map((r) => r.id));
    expect(new Set(both.rows.map((r) => r.id)).size).toBe(200);
  }

  it('a word in 12,500 addresses: reads at most cap + 1 matches, ranks the first 1,000, pages stay in one order', async () => {
    const query = buildTextQuery('Herrengasse')!;
    const nodes = await analyzed(SearchRepository.fullTextSql(query, page));
    const scanned = nodes.filter((n) => n.type !== 'Bitmap Index Scan').map((n) => n.rows);
    expect(Math.max(...scanned)).toBe(COUNT_CAP + 1);

    const service = new PrismaService(testConfig());
    const repo = new SearchRepository(service);
    try {
      const first = await repo.searchFullText(query, { limit: 50, offset: 0 });
      expect(first).toMatchObject({ total: COUNT_CAP, totalExact: false, codeMatched: false });
      const ranked = await repo.searchFullText(query, { limit: 100, offset: 0 });
      const scores = ranked.rows.map((r) => r.score);
      expect(scores).toEqual([...scores].sort((a, b) => b - a));
      await pagesAgree(repo, query, 0);
      await pagesAgree(repo, query, SCORE_CAP - 100); // across the ranked head into the tail
      const deepest = await repo.searchFullText(query, { limit: 100, offset: COUNT_CAP - 100 });
      expect(deepest.rows).toHaveLength(100);
      // With a filter: past the ranked first 1,000, rows still carry their own score.
      const wide = searchPlan({ query: 'Herrengasse', near: { lat: 47.1, lon: 9.5, radius_m: 50_000 } });
      const filteredTail = await repo.searchFullText(query, { limit: 10, offset: SCORE_CAP + 10 }, wide);
      expect(filteredTail.rows).toHaveLength(10);
      for (const row of filteredTail.rows) expect(row.score).toBeGreaterThan(0);
    } finally {
      await service.onModuleDestroy();
    }
  });

  it('a word that statistics show in far more than the cap is not counted; its pages still agree', async () => {
    await prisma.$executeRawUnsafe(`
      INSERT INTO imagery (id, address, captured_at, heading, interactive, image_url, location)
      SELECT gen_random_uuid(), 'Allmendweg ' || g || ', 9490 Vaduz', DATE '2015-01-01', 0, true, 'https://img.test/a.jpg',
             ST_SetSRID(ST_MakePoint(9.5, 47.1), 4326)
      FROM generate_series(1, ${3 * (COUNT_CAP + 1) + 5_000}) g`);
    await prisma.$executeRawUnsafe('ANALYZE imagery');
    const service = new PrismaService(testConfig());
    const repo = new SearchRepository(service);
    try {
      const query = buildTextQuery('allmendweg')!;
      const shape = shapeTextQuery(query, await repo.wordStatistics(), COUNT_CAP);
      expect(shape.broad).toBe(true);
      const nodes = await analyzed(SearchRepository.fullTextSql(query, page, undefined, shape));
      expect(Math.max(...nodes.filter((n) => n.type !== 'Bitmap Index Scan').map((n) => n.rows))).toBe(SCORE_CAP + 1);
      expect(await repo.searchFullText(query, page)).toMatchObject({ total: COUNT_CAP, totalExact: false });
      await pagesAgree(repo, query, SCORE_CAP - 100);
      await pagesAgree(repo, query, COUNT_CAP - 200);
    } finally {
      await service.onModuleDestroy();
      await prisma.$executeRawUnsafe(`DELETE FROM imagery WHERE address LIKE 'Allmendweg %'`);
      await prisma.$executeRawUnsafe('ANALYZE imagery');
    }
  });

  it('past the cap, an address that is the query as a location code still ranks first', async () => {
    // Inserted last, so it is not among the first matches found; HERRENGASSE is a location code.
    await prisma.$executeRawUnsafe(`
      INSERT INTO imagery (id, address, captured_at, heading, interactive, image_url, location)
      VALUES ('00000000-0000-4000-8000-00000000c0de', 'HERRENGASSE', DATE '2020-01-01', 0, true, 'https://img.test/c.jpg',
              ST_SetSRID(ST_MakePoint(9.5, 47.1), 4326))`);
    const service = new PrismaService(testConfig());
    try {
      const result = await new SearchRepository(service).searchFullText(buildTextQuery('herrengasse')!, { limit: 5, offset: 0 });
      expect(result).toMatchObject({ total: COUNT_CAP, totalExact: false, codeMatched: true });
      expect(result.rows[0].address).toBe('HERRENGASSE');
    } finally {
      await service.onModuleDestroy();
      await prisma.$executeRawUnsafe(`DELETE FROM imagery WHERE id = '00000000-0000-4000-8000-00000000c0de'`);
    }
  });

  it('trigram fallback ranks at most SCORE_CAP matches and says when there were more', async () => {
    const service = new PrismaService(testConfig());
    try {
      const result = await new SearchRepository(service).searchFuzzy(buildTextQuery('Herrengase')!, { limit: 5, offset: 0 });
      expect(result).toMatchObject({ total: SCORE_CAP, totalExact: false });
      expect(result.rows).toHaveLength(5);
    } finally {
      await service.onModuleDestroy();
    }
  });

  it('request connections keep capped scans repeatable (no synchronized scans, no parallel workers) and skip JIT', async () => {
    const service = new PrismaService(testConfig());
    try {
      const [settings] = await service.rawQuery<{ sync: string; workers: string }>(
        Prisma.sql`SELECT current_setting('synchronize_seqscans') AS sync, current_setting('max_parallel_workers_per_gather') AS workers,
                          current_setting('jit') AS jit`,
      );
      expect(settings).toEqual({ sync: 'off', workers: '0', jit: 'off' });
    } finally {
      await service.onModuleDestroy();
    }
  });
  it('several words, the last one common: the index looks up the others and the last filters', async () => {
    // "Vaduz" is in a tenth of the addresses; "Herrengasse 40" narrows far more.
    const query = buildTextQuery('Herrengasse 40 Vaduz')!;
    const service = new PrismaService(testConfig());
    try {
      const repo = new SearchRepository(service);
      const shape = shapeTextQuery(query, await repo.wordStatistics(), COUNT_CAP);
      expect(shape).toEqual({ splitPrefix: true, broad: false });
      const text = await plan(SearchRepository.fullTextSql(query, page, undefined, shape));
      expect(text).toContain("Index Cond: (address_tsv @@ '''herrengasse'' & ''40'''::tsquery)");
      expect(text).not.toMatch(/Index Cond: \(address_tsv[^\n]*vaduz/);
      // The same matches either way.
      const split = await repo.searchFullText(query, { limit: 100, offset: 0 });
      const plain = await service.rawQuery<{ id: string | null }>(SearchRepository.fullTextSql(query, { limit: 100, offset: 0 }));
      expect(split.rows.map((r) => r.id).sort()).toEqual(plain.filter((r) => r.id).map((r) => r.id).sort());
      expect(split.total).toBeGreaterThan(0);
    } finally {
      await service.onModuleDestroy();
    }
  });
});
