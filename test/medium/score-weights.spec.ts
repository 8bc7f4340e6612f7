import { PhotosModule } from '../../src/photos/photos.module';
import { Test, TestingModule } from '@nestjs/testing';
import { DatabaseModule } from '../../src/database/database.module';
import { buildTextQuery } from '../../src/search/query/text-query';
import { SearchRepository } from '../../src/search/search.repository';
import { SEARCH_PROVIDERS } from '../../src/search/search.module';
import { NO_FILTERS } from '../../src/search/planning/search-planner';
import { feature, importFixture, prismaClient, resetImagery, testConfig } from '../helpers/test-app';

// One score: a text search (SCORE_WEIGHTS in src/search/ranking/score-weights.ts) and the ranked word
// lists (the database's lis_rank_score) give a record the same score for the same word.
describe('the text score, in TypeScript and in the database', () => {
  let moduleRef: TestingModule;
  const prisma = prismaClient();

  beforeAll(async () => {
    await resetImagery();
    await importFixture([
      feature('Vaduz', { id: 'e0000000-0000-4000-8000-000000000001' }),
      feature('Vaduz Mitte, Liechtenstein', { id: 'e0000000-0000-4000-8000-000000000002' }),
      feature('Herrengasse 35, 9490 Vaduz', { id: 'e0000000-0000-4000-8000-000000000003' }),
      feature('Aeulestrasse 5, Vaduz', { id: 'e0000000-0000-4000-8000-000000000004' }),
    ]);
    moduleRef = await Test.createTestingModule({
      imports: [DatabaseModule.forRoot(testConfig()), PhotosModule],
      providers: SEARCH_PROVIDERS,
    }).compile();
    await moduleRef.init();
  });

  afterAll(async () => {
    await moduleRef.close();
    await prisma.$disconnect();
  });

  it.each(['vaduz', 'herrengasse'])('scores "%s" the same both ways', async (word) => {
    const page = await moduleRef
      .get(SearchRepository)
      .searchFullText(buildTextQuery(word)!, { limit: 10, offset: 0 }, NO_FILTERS);
    expect(page.rows.length).toBeGreaterThan(0);
    const rows = await prisma.$queryRawUnsafe<Array<{ id: string; score: number }>>(
      `SELECT id::text, lis_rank_score(address_norm, address_tsv, $1) AS score FROM imagery WHERE id = ANY($2::uuid[])`,
      word,
      page.rows.map((r) => r.id),
    );
    const inDatabase = new Map(rows.map((r) => [r.id, r.score]));
    for (const row of page.rows) expect(row.score).toBeCloseTo(inDatabase.get(row.id)!, 5);
  });
});
