import { PhotosModule } from '../../src/photos/photos.module';
import { SEARCH_PROVIDERS } from '../../src/search/search.module';
import { Test, TestingModule } from '@nestjs/testing';
import { DatabaseModule } from '../../src/database/database.module';
import { buildTextQuery } from '../../src/search/query/text-query';
import { SearchRepository } from '../../src/search/search.repository';
import { SearchService } from '../../src/search/search.service';
import { ids, relevanceFixture } from '../helpers/fixtures';
import { feature, importFixture, prismaClient, resetImagery, testConfig } from '../helpers/test-app';
import { SearchRequestDto } from '../../src/search/dto/search-request.dto';

const extra = {
  mainStreet: 'b0000000-0000-4000-8000-000000000001',
  mainStreetOther: 'b0000000-0000-4000-8000-000000000002',
  bahnhof: 'b0000000-0000-4000-8000-000000000003',
  zrh: 'b0000000-0000-4000-8000-000000000004',
  postcode: 'b0000000-0000-4000-8000-000000000005',
  saint: 'b0000000-0000-4000-8000-000000000006',
  bonneville: 'b0000000-0000-4000-8000-000000000007',
  boneville: 'b0000000-0000-4000-8000-000000000008',
};

describe('SearchRepository on PostgreSQL/PostGIS', () => {
  let moduleRef: TestingModule;
  let repo: SearchRepository;
  let service: SearchService;

  beforeAll(async () => {
    await resetImagery();
    await importFixture([
      ...relevanceFixture(),
      feature('742 Evergreen Terrace, Springfield', { id: extra.mainStreet }),
      feature('12 Main St, Springfield, IL 62701', { id: extra.mainStreetOther }),
      feature('Bahnhofstr. 7, 9494 Schaan', { id: extra.bahnhof }),
      feature('ZRH', { id: extra.zrh }),
      feature('9490', { id: extra.postcode }),
      feature('St. Gallen, Switzerland', { id: extra.saint }),
      feature('8 Bangor Street, Bonneville', { id: extra.bonneville }),
      feature('3 Boneville Lane, Ogden', { id: extra.boneville }),
    ]);
    moduleRef = await Test.createTestingModule({
      imports: [DatabaseModule.forRoot(testConfig()), PhotosModule],
      providers: SEARCH_PROVIDERS,
    }).compile();
    await moduleRef.init();
    repo = moduleRef.get(SearchRepository);
    service = moduleRef.get(SearchService);
  });

  afterAll(() => moduleRef.close());

  const search = (query: string, limit = 10, page = 1, over: Partial<SearchRequestDto> = {}) =>
    service.search(Object.assign(new SearchRequestDto(), { query, limit, page, ...over }));
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

  it('finds location codes stored as addresses, whatever the case, spaces and dashes', async () => {
    for (const q of ['LI-9490-35', 'li 9490 35', 'Li949035', 'LI - 9490 - 35'])
      expect(await topIds(q)).toEqual([ids.code]);
    expect(await topIds('zrh')).toEqual([extra.zrh]);
    const res = await search('9490', 10, 1, { include: ['interpretation'] });
    expect(res.interpretation).toEqual({
      kind: 'location_code',
      normalized: '9490',
      step: 'full-text',
      page_strategy: 'head-and-tail',
      approximate: false,
    });
    // The code wins; addresses that merely contain 9490 follow.
    expect(res.data[0].id).toBe(extra.postcode);
    expect(res.data.map((r) => r.id)).toContain(ids.herrengasse35);
  });

  it('matches abbreviations and their long forms both ways', async () => {
    expect(await topIds('742 Evergreen Ter')).toEqual([extra.mainStreet]);
    expect(await topIds('12 Main Street Springfield')).toEqual([extra.mainStreetOther]);
    expect(await topIds('Bahnhofstrasse 7 Schaan')).toEqual([extra.bahnhof]);
    expect(await topIds('Bahnhofstraße 7')).toEqual([extra.bahnhof]);
    expect(await topIds('Saint Gallen')).toEqual([extra.saint]);
    expect(await topIds('Tübinger Str. 12')).toEqual([ids.tuebinger]);
  });

  it('takes the words in any order', async () => {
    expect(await topIds('Vaduz 9490 35 Herrengasse')).toEqual([ids.herrengasse35]);
    expect(await topIds('Stuttgart Tubinger')).toEqual([ids.tuebinger]);
  });

  it('tolerates one or two typos per word, through the vocabulary', async () => {
    expect(await topIds('Herrngase 35 Vadus')).toEqual([ids.herrengasse35]);
    expect(await topIds('Tübnger Strase 12')).toEqual([ids.tuebinger]);
    const res = await search('Evergren Terace', 10, 1, { include: ['interpretation'] });
    expect(res.data[0].id).toBe(extra.mainStreet);
    expect(res.interpretation).toEqual({
      kind: 'text',
      normalized: 'evergreen terrace',
      step: 'corrected-full-text',
      page_strategy: 'head-and-tail',
      approximate: true,
      corrections: [
        { from: 'evergren', to: 'evergreen' },
        { from: 'terace', to: 'terrace' },
      ],
    });
  });

  it('corrects a typo that made another real word when the words together match nothing', async () => {
    // "boneville" is a word of the catalogue, but no address holds it with "bangor".
    const fuzzy = jest.spyOn(repo, 'searchFuzzy');
    const res = await search('Bangor Street, Boneville', 10, 1, { include: ['interpretation'] });
    // Found by full text with the corrected words, not by the last resort's similarity.
    expect(fuzzy).not.toHaveBeenCalled();
    fuzzy.mockRestore();
    expect(res.data.map((r) => r.id)).toEqual([extra.bonneville]);
    // Every word is one the catalogue holds, so none is named as the correction.
    expect(res.interpretation).toEqual({
      kind: 'text',
      normalized: 'bangor street boneville',
      step: 'corrected-full-text',
      page_strategy: 'head-and-tail',
      approximate: true,
    });
  });

  it('keeps the vocabulary in step with imports and updates', async () => {
    const prisma = prismaClient();
    try {
      const words = async () =>
        (await prisma.$queryRaw<Array<{ word: string }>>`SELECT word FROM imagery_words ORDER BY word`).map(
          (w) => w.word,
        );
      const now = await words();
      expect(now).toEqual(expect.arrayContaining(['herrengasse', 'vaduz', 'tubinger', 'strasse', 'evergreen', 'zrh']));
      // Numbers and one-letter words are not collected; ordinals and two-letter words are.
      expect(now.filter((w) => !/^([a-z]{2,}|[0-9]+(st|nd|rd|th))$/.test(w))).toEqual([]);
      // Each word with the number of addresses holding it, exact after every insert, update and delete.
      const docs = async (...w: string[]) =>
        Object.fromEntries(
          (
            await prisma.$queryRaw<
              Array<{ word: string; docs: number }>
            >`SELECT word, docs FROM imagery_words WHERE word = ANY(${w})`
          ).map((r) => [r.word, r.docs]),
        );
      const counted = async (w: string) =>
        (
          await prisma.$queryRaw<
            Array<{ n: number }>
          >`SELECT count(*)::int AS n FROM imagery WHERE address_tsv @@ to_tsquery('simple', ${w})`
        )[0].n;
      expect(await docs('vaduz', 'herrengasse')).toEqual({
        vaduz: await counted('vaduz'),
        herrengasse: await counted('herrengasse'),
      });
      const balzers = await counted('balzers');
      const id = 'b0000000-0000-4000-8000-0000000000ff';
      await importFixture([feature('Quellenweg 4, 9496 Balzers', { id })]);
      expect(await words()).toEqual(expect.arrayContaining(['quellenweg', 'balzers']));
      expect(await docs('quellenweg', 'balzers')).toEqual({ quellenweg: 1, balzers: balzers + 1 });
      await importFixture([feature('Wuhrstrasse 4, 9496 Balzers', { id })]);
      expect(await words()).toContain('wuhrstrasse');
      expect(await docs('quellenweg', 'wuhrstrasse', 'balzers')).toEqual({
        quellenweg: 0,
        wuhrstrasse: 1,
        balzers: balzers + 1,
      });
      await prisma.$executeRaw`DELETE FROM imagery WHERE id = ${id}::uuid`;
      expect(await docs('wuhrstrasse', 'balzers')).toEqual({ wuhrstrasse: 0, balzers });
      // An ordinal is a word people type ("21st Street"); a house number or a postcode is not.
      // So is a two-letter word ("El Paso", "Mt Vernon"): the rules that weigh words need its count.
      await importFixture([feature('21st Street 7, El Oq, 9496 Balzers', { id })]);
      expect(await docs('21st', '9496', 'street', 'el', 'oq')).toEqual({
        '21st': 1,
        street: await counted('street'),
        el: await counted('el'),
        oq: 1,
      });
      await prisma.$executeRaw`DELETE FROM imagery WHERE id = ${id}::uuid`;
      expect(await docs('21st', 'oq')).toEqual({ '21st': 0, oq: 0 });
    } finally {
      await prisma.$disconnect();
    }
  });

  it('answers garbage with an empty page, never an error', async () => {
    for (const q of [
      '%#$@*&l;der#$!',
      '😀😀😀',
      "' OR '1'='1",
      '1; DELETE FROM imagery',
      'SELECT * FROM api_keys',
      '<script>x</script>',
    ]) {
      const res = await search(q);
      expect({ q, data: res.data }).toEqual({ q, data: [] });
    }
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
    expect(page).toMatchObject({ total: 6, totalExact: true, codeMatched: false });
  });
});
