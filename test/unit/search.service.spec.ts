import { RecordHistory } from '../../src/search/answer/record-history';
import { LocalizedNamesRepository } from '../../src/search/language/localized-names.repository';
import { PhotoIncludes } from '../../src/photos/photo-includes';
import { loadConfig } from '../../src/config/app-config';
import { SearchPlan } from '../../src/search/planning/search-planner';
import { SearchRequestDto } from '../../src/search/dto/search-request.dto';
import { SearchException } from '../../src/search/search.exception';
import { TextQuery } from '../../src/search/query/text-query';
import { PageWindow, SearchPage, SearchRepository, SearchRow } from '../../src/search/search.repository';
import { searchRow } from '../helpers/search-rows';
import { TextSearchPipeline } from '../../src/search/pipeline/text-search.pipeline';
import { SearchService } from '../../src/search/search.service';
import { Vocabulary } from '../../src/search/vocabulary/vocabulary-lookup';
import { PlaceMatcherService } from '../../src/search/place-matching/place-matcher.service';
import { RecordPlaces } from '../../src/search/answer/record-places';

const row = searchRow;

const page = (total: number, rows: SearchRow[] = [], over: Partial<SearchPage> = {}): SearchPage => ({
  total,
  totalExact: true,
  codeMatched: false,
  rows,
  ...over,
});

// Answers full-text calls in turn from `fullText`, and records every call with what it was given.
class FakeSearchRepository {
  calls: Array<{ method: string; query?: TextQuery; plan?: SearchPlan; window?: PageWindow }> = [];
  constructor(
    private readonly fullText: SearchPage[],
    private readonly fuzzy: SearchPage = page(0),
    private readonly area: SearchPage = page(0),
    private readonly candidates: Map<string, string[]> = new Map(),
    private readonly words = new Vocabulary(
      [
        ['herrengasse', 40],
        ['vaduz', 900],
      ],
      1_000,
    ),
  ) {}
  async vocabulary() {
    return this.words;
  }
  async searchFullText(query: TextQuery, window: PageWindow, plan: SearchPlan) {
    this.calls.push({ method: 'fullText', query, window, plan });
    return this.fullText.shift() ?? page(0);
  }
  async searchFuzzy(query: TextQuery, window: PageWindow, plan: SearchPlan) {
    this.calls.push({ method: 'fuzzy', query, window, plan });
    return this.fuzzy;
  }
  async searchArea(window: PageWindow, plan: SearchPlan) {
    this.calls.push({ method: 'area', window, plan });
    return this.area;
  }
  async wordCandidates(words: string[]) {
    this.calls.push({ method: `candidates:${words.join(',')}` });
    return this.candidates;
  }
  methods() {
    return this.calls.map((c) => c.method);
  }
}

const config = loadConfig({ IMAGE_BASE_URL: 'https://img.example.com/' });
const request = (over: Partial<SearchRequestDto> = {}) =>
  Object.assign(new SearchRequestDto(), { query: 'Herrengasse 35', ...over });
// No gazetteer: the place-aware path is tested on a real database (test/medium/place-search.spec.ts).
const noPlaces = { named: async () => [], misspelt: async () => [] } as unknown as PlaceMatcherService;
const noRecordPlaces = { placesOf: async (rows: unknown[]) => rows.map(() => undefined) } as unknown as RecordPlaces;
const noPhotos = { attach: async () => undefined } as unknown as PhotoIncludes;
const noHistory = { attach: async () => undefined } as unknown as RecordHistory;
const noLocalizedNames = { places: async () => [] } as unknown as LocalizedNamesRepository;
const serviceWith = (repo: FakeSearchRepository) =>
  new SearchService(
    repo as unknown as SearchRepository,
    new TextSearchPipeline(repo as unknown as SearchRepository, noPlaces),
    noRecordPlaces,
    noHistory,
    noPhotos,
    noLocalizedNames,
    config,
  );

describe('SearchService', () => {
  it('formats records exactly as the contract says, with no opt-in fields by default', async () => {
    const repo = new FakeSearchRepository([page(1, [row({ distance: 12.3 })])]);
    const res = await serviceWith(repo).search(request());
    expect(res).toEqual({
      isSuccess: true,
      page: 1,
      pageTotal: 1,
      data: [
        {
          id: '0f5ca291-e477-55f8-b961-57871f26c005',
          address: 'Herrengasse 35, 9490 Vaduz',
          date: 'September 10, 2015',
          compass: 'Facing West (W)',
          interactive: true,
          geometry: { type: 'Point', coordinates: [9.5209, 47.1391] },
          image: 'https://img.example.com/img/1.jpg',
        },
      ],
      result_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      region: 'global',
      region_id: null,
    });
    expect(repo.methods()).toEqual(['fullText']);
  });

  it('refuses newest_per_spot on a distributed catalogue, naming it, before any statement', async () => {
    const repo = Object.assign(new FakeSearchRepository([page(1, [row()])]), { imageryDistributed: true });
    await expect(serviceWith(repo).search(request({ newest_per_spot: true }))).rejects.toMatchObject({
      code: 'FILTER_UNAVAILABLE',
      status: 400,
      details: [{ field: 'newest_per_spot' }],
    });
    expect(repo.methods()).toEqual([]);
    await expect(serviceWith(repo).search(request())).resolves.toMatchObject({ isSuccess: true });
  });

  it('corrects misspelt words against the vocabulary when full text finds nothing', async () => {
    const candidates = new Map([['herengasse', ['herrengasse', 'hengasse', 'bergasse']]]);
    const repo = new FakeSearchRepository([page(3, [row()])], page(0), page(0), candidates);
    const res = await serviceWith(repo).search(
      request({ query: 'Herengasse 35', limit: 2, include: ['interpretation'] }),
    );
    // No address holds "herengasse" (the vocabulary says so): the search as typed, bound to find
    // nothing, is not sent.
    expect(repo.methods()).toEqual(['candidates:herengasse', 'fullText']);
    expect(repo.calls[1].query!.groups[0]).toEqual(['herengasse', 'herrengasse', 'hengasse']);
    expect(res.pageTotal).toBe(2);
    expect(res.interpretation).toEqual({
      kind: 'text',
      normalized: 'herrengasse 35',
      step: 'corrected-full-text',
      approximate: true,
      corrections: [{ from: 'herengasse', to: 'herrengasse' }],
    });
  });

  it('falls back to trigram similarity when neither full text nor corrections find anything', async () => {
    const repo = new FakeSearchRepository([page(0)], page(3, [row()]));
    const res = await serviceWith(repo).search(request({ query: 'Herrengase 35', limit: 2 }));
    // Nothing to correct to: the text as typed after all (a location code or a word newer than the
    // vocabulary in memory may still match), then similarity.
    expect(repo.methods()).toEqual(['candidates:herrengase', 'fullText', 'fuzzy']);
    expect(res.pageTotal).toBe(2);
    // A similar address that is no believable spelling of the query is no answer.
    const guess = new FakeSearchRepository([page(0)], page(3, [row()]));
    expect((await serviceWith(guess).search(request({ query: 'Qzzyx 35', limit: 2 }))).pageTotal).toBe(0);
  });

  it('asks for spelling candidates only for the words the vocabulary does not hold', async () => {
    const repo = new FakeSearchRepository([page(0)]);
    await serviceWith(repo).search(request({ query: 'Herengase Vaduz' }));
    expect(repo.methods()[0]).toBe('candidates:herengase');
  });

  it('looks up every word when the vocabulary holds them all and together they match nothing', async () => {
    // "vaduz" stands for a real word a typo made of another ("Boneville" for "Bonneville").
    const candidates = new Map([
      ['herrengasse', ['herrengasse']],
      ['vaduz', ['vaduz', 'vadez']],
    ]);
    const repo = new FakeSearchRepository([page(0), page(1, [row()])], page(0), page(0), candidates);
    const res = await serviceWith(repo).search(request({ query: 'Herrengasse Vaduz' }));
    expect(repo.methods()).toEqual(['fullText', 'candidates:herrengasse,vaduz', 'fullText']);
    expect(repo.calls[2].query!.groups).toEqual([['herrengasse'], ['vaduz', 'vadez']]);
    expect(res.pageTotal).toBe(1);
  });

  it('answers an empty page without touching the database when nothing is searchable', async () => {
    const repo = new FakeSearchRepository([page(5, [row()])]);
    const res = await serviceWith(repo).search(
      request({ query: '%#$@*&l;der#$!', page: 3, include: ['interpretation'] }),
    );
    expect(repo.calls).toEqual([]);
    expect(res).toMatchObject({ page: 3, pageTotal: 0, data: [], interpretation: { kind: 'text', normalized: '' } });
  });

  it('searches around coordinates, nearest first, without text', async () => {
    const repo = new FakeSearchRepository([], page(0), page(1, [row({ score: 0, distance: 50 })]));
    const res = await serviceWith(repo).search(
      request({ query: '47.1427, 9.5188', include: ['interpretation', 'distance_m', 'score'] }),
    );
    expect(repo.methods()).toEqual(['area']);
    const plan = repo.calls[0].plan!;
    expect(plan.sort).toBe('distance');
    expect(plan.anchor).toEqual({ lat: 47.1427, lon: 9.5188, radiusM: 250 });
    expect(plan.filters.circles).toEqual([{ lat: 47.1427, lon: 9.5188, radiusM: 250 }]);
    expect(res.interpretation).toEqual({
      kind: 'coordinates',
      normalized: '47.1427,9.5188',
      lat: 47.1427,
      lon: 9.5188,
      radius_m: 250,
    });
    expect(res.data[0]).toMatchObject({ distance_m: 50, score: 0.8 });
  });

  it('names a location-code match in the interpretation', async () => {
    const repo = new FakeSearchRepository([page(1, [row()], { codeMatched: true })]);
    const res = await serviceWith(repo).search(request({ query: 'li 9490-35', include: ['interpretation'] }));
    expect(repo.calls[0].query!.code).toBe('li949035');
    expect(res.interpretation).toEqual({
      kind: 'location_code',
      normalized: 'LI949035',
      step: 'full-text',
      approximate: false,
    });
  });

  it('adds exactly the opt-in fields asked for', async () => {
    const repo = new FakeSearchRepository([
      page(10_000, [row({ score: 1.23456789, distance: 12.345 })], { totalExact: false }),
    ]);
    const res = await serviceWith(repo).search(
      request({
        near: Object.assign({ lat: 47.14, lon: 9.52, radius_m: 500 }),
        include: ['captured_at', 'heading', 'distance_m', 'score', 'total'],
      }),
    );
    expect(res).toMatchObject({ total: 10_000, total_exact: false });
    expect(res).not.toHaveProperty('interpretation');
    expect(res.data[0]).toMatchObject({ captured_at: '2015-09-10', heading: 273.1, distance_m: 12.3, score: 1.234568 });
  });

  it('leaves distance_m out when no point is known', async () => {
    const repo = new FakeSearchRepository([page(1, [row()])]);
    const res = await serviceWith(repo).search(request({ include: ['distance_m'] }));
    expect(res.data[0]).not.toHaveProperty('distance_m');
  });

  it('refuses sorts that cannot apply', async () => {
    const repo = new FakeSearchRepository([]);
    await expect(serviceWith(repo).search(request({ sort: 'distance' }))).rejects.toMatchObject({
      code: 'INVALID_SORT',
      status: 400,
    });
    await expect(
      serviceWith(repo).search(request({ query: undefined, bbox: [9, 47, 10, 48], sort: 'relevance' })),
    ).rejects.toBeInstanceOf(SearchException);
    expect(repo.calls).toEqual([]);
  });

  it('refuses impossible coordinates with the reason', async () => {
    const repo = new FakeSearchRepository([]);
    await expect(serviceWith(repo).search(request({ query: '91.5, 9.2' }))).rejects.toMatchObject({
      code: 'INVALID_COORDINATES',
      status: 400,
      message: expect.stringMatching(/latitude 91.5 is out of range/),
    });
  });

  it('gives filters and sort their own result_id, and the plain query its old one', async () => {
    const repo = new FakeSearchRepository([]);
    const id = async (over: Partial<SearchRequestDto>) => (await serviceWith(repo).search(request(over))).result_id;
    const plain = await id({});
    expect(await id({ sort: 'relevance' })).toBe(plain);
    expect(await id({ sort: 'newest' })).not.toBe(plain);
    expect(await id({ interactive: true })).not.toBe(plain);
    expect(await id({ interactive: false })).not.toBe(await id({ interactive: true }));
    expect(await id({ include: ['score'] })).toBe(plain);
  });
});
