import { Test, TestingModule } from '@nestjs/testing';
import { Prisma, PrismaClient } from '@prisma/client';
import { DatabaseModule } from '../../src/database/database.module';
import { buildTextQuery } from '../../src/search/search-query';
import { SearchRepository } from '../../src/search/search.repository';
import { SearchService } from '../../src/search/search.service';
import { ids, relevanceFixture } from '../helpers/fixtures';
import { importFixture, prismaClient, resetImagery, testConfig } from '../helpers/test-app';
import { SearchRequestDto } from '../../src/search/search.dto';

describe('SearchRepository on PostgreSQL/PostGIS', () => {
  let moduleRef: TestingModule;
  let repo: SearchRepository;
  let service: SearchService;

  beforeAll(async () => {
    await resetImagery();
    await importFixture(relevanceFixture());
    moduleRef = await Test.createTestingModule({
      imports: [DatabaseModule.forRoot(testConfig())],
      providers: [SearchRepository, SearchService],
    }).compile();
    await moduleRef.init();
    repo = moduleRef.get(SearchRepository);
    service = moduleRef.get(SearchService);
  });

  afterAll(() => moduleRef.close());

  const search = (query: string, limit = 10, page = 1) =>
    service.search(Object.assign(new SearchRequestDto(), { query, limit, page }));
  const topIds = async (query: string, n = 1) => (await search(query)).data.slice(0, n).map((r) => r.id);

  it('finds an exact address first', async () => {
    expect(await topIds('Herrengasse 35, 9490 Vaduz')).toEqual([ids.herrengasse35]);
  });

  it('ranks the house number asked for above longer numbers that share its prefix', async () => {
    const res = await search('Herrengasse 35');
    expect(res.data[0].id).toBe(ids.herrengasse35);
    expect(res.data.map((r) => r.id)).toContain(ids.herrengasse350);
    expect(res.data.map((r) => r.id)).not.toContain(ids.herrengasse9);
  });

  it('matches the last word as a prefix (search as you type)', async () => {
    const res = await search('Herreng');
    expect(res.data).toHaveLength(4);
    expect(res.data.every((r) => r.address.startsWith('Herrengasse'))).toBe(true);
  });

  it('is case and accent insensitive, and ß equals ss', async () => {
    expect(await topIds('STADTLE 1')).toEqual([ids.staedtle]);
    expect(await topIds('aulestrasse')).toEqual([ids.aeulestrasse]);
    expect(await topIds('Tubinger Strasse')).toEqual([ids.tuebinger]);
  });

  it('tolerates misspellings through trigram similarity', async () => {
    expect(await topIds('Herengasse 35')).toEqual([ids.herrengasse35]);
    expect(await topIds('Rotebuhlplats')).toEqual([ids.rotebuehl]);
  });

  it('finds location codes stored as addresses', async () => {
    expect(await topIds('LI-9490-35')).toEqual([ids.code]);
  });

  it('returns stored coordinates at full precision and the formatted fields', async () => {
    const [record] = (await search('Herrengasse 35, 9490 Vaduz')).data;
    expect(record).toMatchObject({ date: 'September 10, 2015', compass: 'Facing West (W)' });
    expect(record.geometry).toEqual({ type: 'Point', coordinates: [9.52, 47.14] });
  });

  it('returns nothing for words that match nothing', async () => {
    const res = await search('Zzyzx Qwv');
    expect(res).toMatchObject({ pageTotal: 0, data: [] });
  });

  it('pages past the end with the true total', async () => {
    const page = await repo.searchFullText(buildTextQuery('Vaduz')!, { limit: 2, offset: 100 });
    expect(page.rows).toEqual([]);
    expect(page.total).toBe(6);
  });
});

describe('search query plans', () => {
  let prisma: PrismaClient;
  const ROWS = 50_000;

  beforeAll(async () => {
    await resetImagery();
    prisma = prismaClient();
    // Enough rows that the planner prefers an index when one fits.
    await prisma.$executeRawUnsafe(`
      INSERT INTO imagery (id, address, captured_at, heading, interactive, image_url, location)
      SELECT gen_random_uuid(),
             (ARRAY['Herrengasse','Landstrasse','Kirchstrasse','Bahnhofstrasse','Poststrasse','Feldweg','Im Ganser','Zollstrasse'])[1 + g % 8]
               || ' ' || (g % 500) || ', ' || (9000 + g % 997) || ' '
               || (ARRAY['Vaduz','Schaan','Balzers','Triesen','Eschen','Mauren','Ruggell','Gamprin','Planken','Nendeln'])[1 + (g / 8) % 10]
               || ' ' || md5(g::text),
             DATE '2010-01-01' + (g % 5000), (g * 7) % 360, g % 3 = 0, 'https://img.test/' || g || '.jpg',
             ST_SetSRID(ST_MakePoint(9.4 + (g % 1000) / 5000.0, 47.0 + (g / 1000) / 500.0), 4326)
      FROM generate_series(1, ${ROWS}) g`);
    await prisma.$executeRawUnsafe('ANALYZE imagery');
  });

  afterAll(async () => {
    await resetImagery();
    await prisma.$disconnect();
  });

  // EXPLAIN exactly the statement the repository sends.
  async function plan(sql: Prisma.Sql): Promise<string> {
    const rows = await prisma.$queryRawUnsafe<Array<{ 'QUERY PLAN': string }>>(`EXPLAIN ${sql.text}`, ...sql.values);
    return rows.map((r) => r['QUERY PLAN']).join('\n');
  }

  it('full-text search uses the tsvector GIN index', async () => {
    const text = await plan(SearchRepository.fullTextSql(buildTextQuery('Kirchstrasse 42 Vaduz')!, { limit: 10, offset: 0 }));
    expect(text).toContain('imagery_address_tsv_idx');
    expect(text).not.toMatch(/Seq Scan on imagery/);
  });

  it('typo fallback uses the trigram GIN index', async () => {
    const text = await plan(SearchRepository.fuzzySql(buildTextQuery('Kirchstrase 42 Vadus')!, { limit: 10, offset: 0 }));
    expect(text).toContain('imagery_address_norm_trgm_idx');
    expect(text).not.toMatch(/Seq Scan on imagery/);
  });
});
