import { Prisma, PrismaClient } from '@prisma/client';
import { buildTextQuery } from '../../src/search/query/text-query';
import { COUNT_CAP, SCORE_CAP, SearchRepository } from '../../src/search/search.repository';
import { shapeTextQuery } from '../../src/search/planning/index-choice';
import { PrismaService } from '../../src/database/prisma.service';
import { explain, explainAnalyzed, searchPlan, seedPlanCatalogue } from '../helpers/query-plans';
import { prismaClient, resetImagery, testConfig } from '../helpers/test-app';
import { areaCountCap } from '../../src/search/paging/search-limits';

// The caps of search (counting, ranking, the trigram fallback) and the settings of request connections,
// EXPLAINed and run on 100,000 rows (and a 100,000-word vocabulary).
describe('search query plans: caps', () => {
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

  // Records 'Quellenhof <g>' followed by `rest` (an SQL expression of g), g = 1..n; deleted by the tests.
  const insertQuellenhof = (n: number, rest: string) =>
    prisma.$executeRawUnsafe(`
      INSERT INTO imagery (id, address, captured_at, heading, interactive, image_url, location)
      SELECT gen_random_uuid(), 'Quellenhof ' || g || ${rest}, DATE '2015-01-01', 0, true, 'https://img.test/q.jpg',
             ST_SetSRID(ST_MakePoint(9.5, 47.1), 4326)
      FROM generate_series(1, ${n}) g`);

  it('stops counting at the cap and says so; pages up to the cap still come nearest first', async () => {
    // As the request path runs: through PrismaService's reader pool.
    const service = new PrismaService(testConfig());
    const prismaRepo = new SearchRepository(service);
    try {
      const widePlan = searchPlan({ near: { lat: 47.1, lon: 9.5, radius_m: 50_000 } });
      // Nearest first counts a few pages ahead: a lower bound, that shows the next pages.
      const wide = await prismaRepo.searchArea({ limit: 5, offset: 0 }, widePlan);
      expect(wide).toMatchObject({ total: areaCountCap({ limit: 5, offset: 0 }), totalExact: false });
      expect(wide.total).toBeGreaterThan(5);
      expect(wide.rows).toHaveLength(5);
      const deepest = await prismaRepo.searchArea({ limit: 100, offset: COUNT_CAP - 100 }, widePlan);
      expect(deepest).toMatchObject({ total: COUNT_CAP, totalExact: false });
      expect(deepest.rows).toHaveLength(100);
      const distances = deepest.rows.map((r) => r.distance!);
      expect(distances).toEqual([...distances].sort((a, b) => a - b));
      expect(distances[0]).toBeGreaterThanOrEqual(wide.rows[4].distance!);
      // A circle holding fewer matches than that is counted exactly.
      const narrow = await prismaRepo.searchArea(
        { limit: 100, offset: 0 },
        searchPlan({ near: { lat: 47.1, lon: 9.5, radius_m: 300 } }),
      );
      expect(narrow.totalExact).toBe(true);
      expect(narrow.total).toBeGreaterThan(0);
      expect(narrow.total).toBeLessThan(areaCountCap({ limit: 100, offset: 0 }));
    } finally {
      await service.onModuleDestroy();
    }
  });

  async function pagesAgree(repo: SearchRepository, query: ReturnType<typeof buildTextQuery>, offset: number) {
    const first = await repo.searchFullText(query!, { limit: 100, offset });
    const second = await repo.searchFullText(query!, { limit: 100, offset: offset + 100 });
    const both = await repo.searchFullText(query!, { limit: 200, offset });
    expect(both.rows.map((r) => r.id)).toEqual([...first.rows, ...second.rows].map((r) => r.id));
    expect(new Set(both.rows.map((r) => r.id)).size).toBe(200);
  }

  it('a word in 12,500 addresses: reads at most cap + 1 matches, ranks the first 1,000, pages stay in one order', async () => {
    const query = buildTextQuery('Herrengasse')!;
    const nodes = await explainAnalyzed(prisma, SearchRepository.fullTextSql(query, page));
    const scanned = nodes.filter((n) => n.type !== 'Bitmap Index Scan').map((n) => n.rows);
    expect(Math.max(...scanned)).toBe(COUNT_CAP + 1);
    // One scan reads the matches: the head is ranked from it and counted with it, not read again.
    expect(nodes.filter((n) => n.on === 'imagery' && n.rows > SCORE_CAP)).toHaveLength(1);

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

  it('text near a point where matches repeat an address: a run of equal matches is scored once, pages unchanged', async () => {
    // 40 images of each address side by side (as dense imagery is), past SCORE_CAP in all.
    await prisma.$executeRawUnsafe(`
      INSERT INTO imagery (id, address, captured_at, heading, interactive, image_url, location)
      SELECT gen_random_uuid(), 'Quellenhof ' || g / 40 || ', Vaduz', DATE '2015-01-01', 0, g % 2 = 0, 'https://img.test/q.jpg',
             ST_SetSRID(ST_MakePoint(9.5 + (g / 40) * 0.0001, 47.1 + (g % 40) * 0.00001), 4326)
      FROM generate_series(1, 2400) g`);
    try {
      const query = buildTextQuery('Quellenhof Vaduz')!;
      const near = searchPlan({ query: query.text, near: { lat: 47.1, lon: 9.5, radius_m: 2000 } });
      const rows = (sql: Prisma.Sql) => prisma.$queryRawUnsafe<unknown[]>(sql.text, ...sql.values);
      for (const window of [page, { limit: 100, offset: 950 }, { limit: 10, offset: 2000 }]) {
        const once = SearchRepository.fullTextSql(query, window, near);
        expect(once.text).toContain('scanned AS MATERIALIZED');
        // With imagery distributed every ranked match is scored: the rows and order to compare with.
        const each = SearchRepository.fullTextSql(query, window, near, undefined, null, 'citus');
        expect(each.text).not.toContain('scanned AS MATERIALIZED');
        expect(await rows(once)).toEqual(await rows(each));
      }
      const text = await plan(SearchRepository.fullTextSql(query, page, near));
      expect(text).not.toMatch(/Seq Scan on imagery/);
    } finally {
      await prisma.$executeRawUnsafe(`DELETE FROM imagery WHERE address LIKE 'Quellenhof %'`);
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
      const shape = shapeTextQuery(query, await repo.vocabulary(), COUNT_CAP);
      expect(shape.broad).toBe(true);
      const nodes = await explainAnalyzed(prisma, SearchRepository.fullTextSql(query, page, undefined, shape));
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
      const result = await new SearchRepository(service).searchFullText(buildTextQuery('herrengasse')!, {
        limit: 5,
        offset: 0,
      });
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
      const result = await new SearchRepository(service).searchFuzzy(buildTextQuery('Herrengase')!, {
        limit: 5,
        offset: 0,
      });
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
    // "Vaduz" is in a tenth of the addresses; "Quellenhof 40" narrows far more (a street of 60).
    await insertQuellenhof(60, `', 9490 Vaduz'`);
    const query = buildTextQuery('Quellenhof 40 Vaduz')!;
    const service = new PrismaService(testConfig());
    try {
      const repo = new SearchRepository(service);
      const shape = shapeTextQuery(query, await repo.vocabulary(), COUNT_CAP);
      expect(shape).toMatchObject({ splitPrefix: true, broad: false, lists: null, estimate: null });
      const text = await plan(SearchRepository.fullTextSql(query, page, undefined, shape));
      // The rarest word the vocabulary counts narrows to 60 records: the index looks up that word alone
      // (a house number is no count the vocabulary knows), and the whole query filters.
      expect(shape.indexed).toBe("'quellenhof'");
      expect(text).toContain("Index Cond: (address_tsv @@ '''quellenhof'''::tsquery)");
      expect(text).not.toMatch(/Index Cond: \(address_tsv[^\n]*vaduz/);
      // The same matches either way.
      const split = await repo.searchFullText(query, { limit: 100, offset: 0 });
      const plain = await service.rawQuery<{ id: string | null }>(
        SearchRepository.fullTextSql(query, { limit: 100, offset: 0 }),
      );
      expect(split.rows.map((r) => r.id).sort()).toEqual(
        plain
          .filter((r) => r.id)
          .map((r) => r.id)
          .sort(),
      );
      expect(split.total).toBeGreaterThan(0);
      // A house number is no count the vocabulary knows: it cannot decide a split alone.
      expect(shapeTextQuery(buildTextQuery('Herrengasse 40 Vaduz')!, await repo.vocabulary(), COUNT_CAP)).toMatchObject(
        {
          splitPrefix: false,
          broad: false,
          lists: null,
          estimate: null,
        },
      );
    } finally {
      await prisma.$executeRawUnsafe(`DELETE FROM imagery WHERE address LIKE 'Quellenhof %'`);
      await service.onModuleDestroy();
    }
  });

  it('a last word with few completions: the index looks up those words whole, not the prefix, and finds the same', async () => {
    // "vaduz" (a tenth of the addresses) and "vaduzerberg" (40): the words "Vaduz" starts.
    await insertQuellenhof(80, `', ' || CASE WHEN g % 2 = 0 THEN 'Vaduz' ELSE 'Vaduzerberg' END`);
    const query = buildTextQuery('Quellenhof Vaduz')!;
    const service = new PrismaService(testConfig());
    try {
      const repo = new SearchRepository(service);
      const shape = shapeTextQuery(query, await repo.vocabulary(), COUNT_CAP);
      expect(shape.completed).toBe("'quellenhof' & ('vaduz' | 'vaduzerberg')");
      // Looked up whole (neither split nor narrowed to "quellenhof"), no prefix is looked up.
      const text = await plan(
        SearchRepository.fullTextSql(query, page, undefined, { ...shape, splitPrefix: false, indexed: undefined }),
      );
      expect(text).toMatch(/Index Cond: \(address_tsv @@ [^\n]*'vaduzerberg'/);
      expect(text).not.toMatch(/Index Cond: \(address_tsv[^\n]*:\*/);
      const all = { limit: 100, offset: 0 };
      const completed = await repo.searchFullText(query, all);
      const prefix = await service.rawQuery<{ id: string | null }>(
        SearchRepository.fullTextSql(query, all, undefined, { ...shape, completed: undefined }),
      );
      expect(completed.total).toBe(80);
      expect(completed.rows.map((r) => r.id).sort()).toEqual(prefix.map((r) => r.id).sort());
    } finally {
      await prisma.$executeRawUnsafe(`DELETE FROM imagery WHERE address LIKE 'Quellenhof %'`);
      await service.onModuleDestroy();
    }
  });
});
