import { Prisma } from '@prisma/client';
import { Client } from 'pg';
import { PrismaService } from '../../src/database/prisma.service';
import { PlaceMatchingRepository } from '../../src/search/place-matching/place-matching.repository';
import { SearchRepository } from '../../src/search/search.repository';
import { buildTextQuery } from '../../src/search/query/text-query';
import { testConfig } from '../helpers/test-app';

// A search's best-effort steps (misspelt place names, the trigram fallback) run within
// SEARCH_FALLBACK_BUDGET_MS in a read-only transaction of their own: past it they find nothing instead
// of failing the search with a 503 (at ten million records such a step took over the 2 s statement
// timeout). Slowness is made certain here by a lock held by another connection or by pg_sleep.
describe('best-effort statements', () => {
  const services: PrismaService[] = [];
  const service = async (overrides: Parameters<typeof testConfig>[0]) => {
    const prisma = new PrismaService(testConfig({ dbPoolSize: 1, ...overrides }));
    await prisma.onModuleInit();
    services.push(prisma);
    return prisma;
  };
  let locker: Client;

  beforeAll(async () => {
    locker = new Client({ connectionString: process.env.DATABASE_URL });
    await locker.connect();
  });

  afterAll(async () => {
    await locker.end();
    await Promise.all(services.map((s) => s.onModuleDestroy()));
  });

  const timed = async <T>(work: () => Promise<T>) => {
    const started = Date.now();
    const result = await work();
    return { result, ms: Date.now() - started };
  };

  // Holds `table` locked against readers while `work` runs.
  async function whileLocked<T>(table: string, work: () => Promise<T>): Promise<T> {
    await locker.query('BEGIN');
    await locker.query(`LOCK TABLE ${table} IN ACCESS EXCLUSIVE MODE`);
    try {
      return await work();
    } finally {
      await locker.query('ROLLBACK');
    }
  }

  it('answers null past the budget, and the pooled connection keeps its own statement timeout', async () => {
    const prisma = await service({ searchFallbackBudgetMs: 150 });
    const setting = Prisma.sql`SELECT current_setting('statement_timeout') AS t`;
    const [before] = await prisma.rawQuery<{ t: string }>(setting);
    const { result, ms } = await timed(() => prisma.bestEffortQuery(Prisma.sql`SELECT pg_sleep(1)`));
    expect(result).toBeNull();
    expect(ms).toBeLessThan(800);
    // One connection in the pool: the same one, back with its own setting.
    expect(await prisma.rawQuery(setting)).toEqual([before]);
    expect(await prisma.rawQuery(Prisma.sql`SELECT pg_sleep(0.3) IS NOT NULL AS slept`)).toEqual([{ slept: true }]);
  });

  it('returns rows within the budget; other errors stay errors', async () => {
    const prisma = await service({ searchFallbackBudgetMs: 1000 });
    expect(await prisma.bestEffortQuery(Prisma.sql`SELECT 1 + ${1}::int AS two`)).toEqual([{ two: 2 }]);
    await expect(prisma.bestEffortQuery(Prisma.sql`SELECT 1 / ${0}::int`)).rejects.toThrow(/division by zero/);
    expect(await prisma.bestEffortQuery(Prisma.sql`SELECT 3 AS three`)).toEqual([{ three: 3 }]);
  });

  it('is never longer than the statement timeout', async () => {
    const prisma = await service({ searchFallbackBudgetMs: 60_000, dbStatementTimeoutMs: 200 });
    const { result, ms } = await timed(() => prisma.bestEffortQuery(Prisma.sql`SELECT pg_sleep(2)`));
    expect(result).toBeNull();
    expect(ms).toBeLessThan(1500);
  });

  it('a misspelt place name that takes too long to look up is no place, not a failed search', async () => {
    const places = new PlaceMatchingRepository(await service({ searchFallbackBudgetMs: 200 }));
    const { result, ms } = await timed(() => whileLocked('places', () => places.similar('Sna Francisco', null)));
    expect(result).toEqual([]);
    expect(ms).toBeLessThan(1500);
  });

  it('the trigram fallback that takes too long finds nothing, not a failed search', async () => {
    const search = new SearchRepository(await service({ searchFallbackBudgetMs: 200 }));
    const query = buildTextQuery('Herengase 35 Vadus')!;
    const window = { offset: 0, limit: 10 };
    const { result, ms } = await timed(() => whileLocked('imagery', () => search.searchFuzzy(query, window)));
    expect(result).toEqual({ total: 0, totalExact: true, codeMatched: false, rows: [] });
    expect(ms).toBeLessThan(1500);
  });
});
