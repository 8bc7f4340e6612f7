import { loadConfig } from '../../src/config/app-config';
import { SearchRequestDto } from '../../src/search/search.dto';
import { TextQuery } from '../../src/search/search-query';
import { PageWindow, SearchPage, SearchRepository, SearchRow } from '../../src/search/search.repository';
import { SearchService } from '../../src/search/search.service';

const row = (over: Partial<SearchRow> = {}): SearchRow => ({
  id: '0f5ca291-e477-55f8-b961-57871f26c005',
  address: 'Herrengasse 35, 9490 Vaduz',
  capturedAt: '2015-09-10',
  heading: 273.1,
  interactive: true,
  imageUrl: '/img/1.jpg',
  lon: 9.5209,
  lat: 47.1391,
  score: 1,
  ...over,
});

class FakeSearchRepository {
  calls: string[] = [];
  constructor(
    private readonly fullText: SearchPage,
    private readonly fuzzy: SearchPage = { total: 0, rows: [] },
  ) {}
  async searchFullText(_q: TextQuery, _w: PageWindow) {
    this.calls.push('fullText');
    return this.fullText;
  }
  async searchFuzzy(_q: TextQuery, _w: PageWindow) {
    this.calls.push('fuzzy');
    return this.fuzzy;
  }
}

const config = loadConfig({ IMAGE_BASE_URL: 'https://img.example.com/' });
const request = (over: Partial<SearchRequestDto> = {}) => Object.assign(new SearchRequestDto(), { query: 'Herrengasse 35', ...over });

describe('SearchService', () => {
  it('formats records exactly as the contract says', async () => {
    const repo = new FakeSearchRepository({ total: 1, rows: [row()] });
    const res = await new SearchService(repo as unknown as SearchRepository, config).search(request());
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
    expect(repo.calls).toEqual(['fullText']);
  });

  it('falls back to trigram matching only when full text finds nothing', async () => {
    const repo = new FakeSearchRepository({ total: 0, rows: [] }, { total: 3, rows: [row()] });
    const res = await new SearchService(repo as unknown as SearchRepository, config).search(request({ limit: 2 }));
    expect(repo.calls).toEqual(['fullText', 'fuzzy']);
    expect(res.pageTotal).toBe(2);
  });

  it('answers an empty page without touching the database when nothing is searchable', async () => {
    const repo = new FakeSearchRepository({ total: 5, rows: [row()] });
    const res = await new SearchService(repo as unknown as SearchRepository, config).search(request({ query: '%#$@!', page: 3 }));
    expect(repo.calls).toEqual([]);
    expect(res).toMatchObject({ page: 3, pageTotal: 0, data: [] });
  });
});
