import { RankedPlace } from '../../../src/search/place-matching/place-ranking';
import { runTextSearch } from '../../../src/search/pipeline/text-search.pipeline';
import { SearchSteps, TEXT_SEARCH_STEPS, TextSearchStep } from '../../../src/search/pipeline/text-search.steps';
import { initialState, TextSearchState } from '../../../src/search/pipeline/text-search-state';
import { SearchPlan } from '../../../src/search/search-filters';
import { buildTextQuery, TextQuery } from '../../../src/search/search-query';
import { SearchPage, SearchRow } from '../../../src/search/search.repository';
import { Vocabulary } from '../../../src/search/vocabulary';

// The control flow of the text search: which step runs when, what it leaves for the next, which one
// answers. The statements themselves run on a real database (test/medium/search*.spec.ts,
// place-search*.spec.ts); here the repository and the place matcher answer from lists and record calls.
const plan: SearchPlan = { filters: { circles: [] }, sort: 'relevance', anchor: null } as unknown as SearchPlan;
const window = { limit: 10, offset: 0 };
const page = (total: number): SearchPage => ({ total, totalExact: true, codeMatched: false, rows: [] });
const place = (name: string, over: Partial<RankedPlace> = {}): RankedPlace => ({
  id: `id-${name}`,
  kind: 'locality',
  name,
  label: `${name}, Liechtenstein`,
  altNames: '',
  importance: 0.5,
  lon: 9.52,
  lat: 47.14,
  similarity: null,
  rank: 1,
  ...over,
});

interface Script {
  fullText?: number[];
  area?: number;
  fuzzy?: number;
  /** The address of the best similar record. */
  fuzzyAddress?: string;
  named?: RankedPlace[][];
  misspelt?: RankedPlace[];
  candidates?: Record<string, string[]>;
  words?: Array<[string, number]>;
  /** Records at the pois of a category. */
  category?: number;
}

function scripted(script: Script) {
  const calls: string[] = [];
  const fullText = [...(script.fullText ?? [])];
  const named = [...(script.named ?? [])];
  const vocabulary = new Vocabulary(
    script.words ?? [
      ['herrengasse', 40],
      ['vaduz', 900],
    ],
    1_000,
  );
  const log = <T>(call: string, result: T): T => {
    calls.push(call);
    return result;
  };
  const deps: SearchSteps = {
    repository: {
      vocabulary: async () => vocabulary,
      searchFullText: async (q: TextQuery) => log(`fullText:${q.words.join(' ')}`, page(fullText.shift() ?? 0)),
      searchArea: async () => log('area', page(script.area ?? 0)),
      searchFuzzy: async () =>
        log('fuzzy', {
          ...page(script.fuzzy ?? 0),
          rows: script.fuzzy ? [{ address: script.fuzzyAddress ?? '' } as SearchRow] : [],
        }),
      wordCandidates: async (words: string[]) =>
        log(`candidates:${words.join(',')}`, new Map(Object.entries(script.candidates ?? {}))),
    } as unknown as SearchSteps['repository'],
    placeMatcher: {
      named: async (q: TextQuery) => log(`named:${q.words.join(' ')}`, named.shift() ?? []),
      misspelt: async () => log('misspelt', script.misspelt ?? []),
      atCategory: async (tags: string[], area: { around: { radiusM: number } | null }) =>
        log(`category:${tags.join(',')}@${area.around?.radiusM ?? 'anywhere'}`, {
          page: page(script.category ?? 0),
          pois: [],
        }),
    } as unknown as SearchSteps['placeMatcher'],
  };
  return { calls, deps };
}

const run = (query: string, script: Script, steps: readonly TextSearchStep[] = TEXT_SEARCH_STEPS) => {
  const { calls, deps } = scripted(script);
  return runTextSearch(steps, initialState(buildTextQuery(query)!, window, plan), deps).then((r) => ({ ...r, calls }));
};

describe('the text search steps', () => {
  it('are one list of named steps, strict first and the similarity fallback last', () => {
    expect(TEXT_SEARCH_STEPS.map((s) => s.name)).toEqual([
      'named-region',
      'region-conflict',
      'named-category',
      'named-places',
      'full-text',
      'region-in-address',
      'around-named-place',
      'word-corrections',
      'corrected-places',
      'corrected-full-text',
      'misspelt-places',
      'meant-place-full-text',
      'around-meant-place',
      'unbound-full-text',
      'similar-text',
      'nothing-found',
    ]);
    expect(TEXT_SEARCH_STEPS.filter((s) => s.final).map((s) => s.name)).toEqual(['region-conflict', 'nothing-found']);
  });

  describe('full-text', () => {
    it('answers with the words as typed when the vocabulary holds them all', async () => {
      const r = await run('Herrengasse Vaduz', { fullText: [3] });
      expect(r.step).toBe('full-text');
      expect(r.answer.match).toBe('text');
      expect(r.calls).toEqual(['named:herrengasse vaduz', 'fullText:herrengasse vaduz']);
    });

    it('does not run with a word no address holds and no place named (it would find nothing)', async () => {
      const r = await run('Qwzrtx', { fuzzy: 0 });
      expect(r.state.bound).toBe(false);
      expect(r.state.ran).not.toContain('full-text');
    });
  });

  describe('around-named-place', () => {
    it('answers with the imagery near a named place that has none of its own', async () => {
      const vaduz = place('Vaduz');
      const r = await run('Vaduz', { named: [[vaduz]], fullText: [0], area: 4 });
      expect(r.step).toBe('around-named-place');
      expect(r.answer).toMatchObject({ match: 'nearby', places: [vaduz] });
    });

    it('does not run when the query names no place', async () => {
      const r = await run('Herrengasse', { fullText: [0] });
      expect(r.state.ran).not.toContain('around-named-place');
    });
  });

  describe('word-corrections and corrected-full-text', () => {
    it('corrects the words the vocabulary lacks and answers with the addresses that hold the corrections', async () => {
      const r = await run('Herengasse', { candidates: { herengasse: ['herrengasse'] }, fullText: [2] });
      expect(r.step).toBe('corrected-full-text');
      expect(r.answer.corrections).toEqual([{ from: 'herengasse', to: 'herrengasse' }]);
      expect(r.calls).toContain('candidates:herengasse');
    });

    it('looks every word up when the vocabulary holds them all but together they match nothing', async () => {
      const r = await run('Herrengasse Vaduz', { fullText: [0] });
      expect(r.calls).toContain('candidates:herrengasse,vaduz');
    });
  });

  describe('corrected-places and meant-place-full-text', () => {
    it('prefers the places the corrected words name, and skips the similar-names statement', async () => {
      const vaduz = place('Vaduz');
      const r = await run('Vadus', { candidates: { vadus: ['vaduz'] }, named: [[], [vaduz]], fullText: [5] });
      expect(r.step).toBe('meant-place-full-text');
      expect(r.answer).toMatchObject({ match: 'corrected', places: [vaduz] });
      expect(r.calls).not.toContain('misspelt');
      expect(r.state.ran).not.toContain('corrected-full-text');
    });
  });

  describe('misspelt-places and around-meant-place', () => {
    it('asks for the names most like the query when no correction names a place', async () => {
      const schaan = place('Schaan', { similarity: 0.6 });
      const r = await run('Shcaan', { misspelt: [schaan], fullText: [0], area: 2 });
      expect(r.calls).toContain('misspelt');
      expect(r.step).toBe('around-meant-place');
      expect(r.answer).toMatchObject({ match: 'nearby', places: [schaan] });
    });
  });

  describe('unbound-full-text', () => {
    it('tries the words as typed last: a word imported since the vocabulary was read', async () => {
      const r = await run('Qwzrtx', { fullText: [1] });
      expect(r.step).toBe('unbound-full-text');
      expect(r.answer.match).toBe('text');
    });
  });

  describe('similar-text and nothing-found', () => {
    it('asks for similar addresses when a word is no address word, and says nothing when none is found', async () => {
      const r = await run('Qwzrtx', {});
      expect(r.calls[r.calls.length - 1]).toBe('fuzzy');
      expect(r.step).toBe('nothing-found');
      expect(r.answer).toMatchObject({ match: 'fallback', page: { total: 0 } });
    });

    it('answers with similar addresses, marked as the fallback, when the best resembles every word', async () => {
      const r = await run('Delansn Lane', { fuzzy: 2, fuzzyAddress: '942 South Delanson Lane, Merritt Island' });
      expect(r.step).toBe('similar-text');
      expect(r.answer.match).toBe('fallback');
    });

    it('gives no guess that only shares letters with the query ("Rosenstrasse" is not Rheinstrasse)', async () => {
      const r = await run('Rosenstrasse, Vaduz', { fuzzy: 3, fuzzyAddress: 'Rheinstrasse 5, 9490 Vaduz' });
      expect(r.calls).toContain('fuzzy');
      expect(r.step).toBe('nothing-found');
    });

    it('does not guess when every word is an address word and together they match nothing', async () => {
      const r = await run('Herrengasse Vaduz', {});
      expect(r.calls).not.toContain('fuzzy');
      expect(r.step).toBe('nothing-found');
    });
  });

  describe('named-region and region-conflict', () => {
    it('binds the search to the country the query names and searches the rest', async () => {
      const r = await run('Dallas, Poland', {});
      expect(r.state.namedRegion?.code).toBe('PL');
      expect(r.state.plan.filters.region).toBe('PL');
      expect(r.state.text.words).toEqual(['dallas']);
      expect(r.calls).toContain('named:dallas');
    });

    it('does not bind when a town has the name too (the query may mean it)', async () => {
      const washington = place('Washington', { kind: 'locality' });
      const r = await run('Main Street, Washington', { named: [[washington]] });
      expect(r.state.namedRegion).toBeNull();
      expect(r.state.text.words).toEqual(['main', 'street', 'washington']);
    });

    it('answers nothing when the region named lies outside the one asked for', async () => {
      const { calls, deps } = scripted({});
      const outside = { ...plan, filters: { circles: [], region: 'US-TX' } } as unknown as SearchPlan;
      const r = await runTextSearch(
        TEXT_SEARCH_STEPS,
        initialState(buildTextQuery('Vaduz, LIE')!, window, outside),
        deps,
      );
      expect(r.step).toBe('region-conflict');
      expect(r.answer.page.total).toBe(0);
      expect(calls.filter((c) => c.startsWith('fullText'))).toEqual([]);
    });

    it('finds records whose address names the region though no place links them to it', async () => {
      const words: Array<[string, number]> = [
        ['gaziantep', 3],
        ['turkiye', 90],
      ];
      const r = await run('Gaziantep, Türkiye', { fullText: [0, 1], words });
      expect(r.step).toBe('region-in-address');
      expect(r.calls.filter((c) => c.startsWith('fullText'))).toEqual([
        'fullText:gaziantep',
        'fullText:gaziantep turkiye',
      ]);
    });
  });

  describe('believable approximations', () => {
    it('does not answer with the surroundings of a named place when other words found nothing there', async () => {
      const dallas = place('Dallas', { label: 'Dallas, Texas, United States' });
      const r = await run('Herrengasse Dallas', { named: [[dallas]], fullText: [0], area: 5 });
      expect(r.state.ran).not.toContain('around-named-place');
      expect(r.calls).not.toContain('area');
    });

    it('drops similar names that are no believable spelling of the query ("New Yrok" is not New Yekepa)', async () => {
      const yekepa = place('New Yekepa', { similarity: 0.5 });
      const york = place('New York', { similarity: 0.4 });
      const r = await run('New Yrok', { misspelt: [yekepa, york], fullText: [0, 0], area: 3 });
      expect(r.state.meant.map((p) => p.name)).toEqual(['New York']);
      expect(r.answer.places.map((p) => p.name)).toEqual(['New York']);
    });
  });

  it('the runner refuses a list without a final step rather than answering nothing silently', async () => {
    const steps = TEXT_SEARCH_STEPS.filter((s) => !s.final);
    await expect(run('Qwzrtx', {}, steps)).rejects.toThrow(/final step/);
  });

  it('keeps what each step found for the next (state)', async () => {
    const state: TextSearchState = initialState(buildTextQuery('Vaduz')!, window, plan);
    const { deps } = scripted({ named: [[place('Vaduz')]] });
    const upToPlaces = TEXT_SEARCH_STEPS.slice(0, TEXT_SEARCH_STEPS.findIndex((s) => s.name === 'named-places') + 1);
    for (const step of upToPlaces) if (step.when(state)) await step.run(state, deps);
    expect(state.places.map((p) => p.name)).toEqual(['Vaduz']);
    expect(state.bound).toBe(true);
  });

  describe('named-category', () => {
    it('answers a category that is the whole query with the imagery at its pois', async () => {
      const r = await run('restaurants', { category: 3 });
      expect(r.step).toBe('named-category');
      expect(r.answer.match).toBe('nearby');
      expect(r.calls).toEqual(['named:restaurants', 'category:amenity=restaurant@anywhere']);
    });

    it('looks for the pois around the place the rest names, within its surroundings', async () => {
      const r = await run('hotel in Vaduz', { named: [[], [place('Vaduz')]], category: 1 });
      expect(r.step).toBe('named-category');
      expect(r.calls).toEqual(['named:hotel in vaduz', 'named:vaduz', 'category:tourism=hotel@10000']);
    });

    it('goes on as before when the category has no imagery, or the rest names no town', async () => {
      const none = await run('restaurant', { category: 0, fullText: [2], words: [['restaurant', 5]] });
      expect(none.step).toBe('full-text');
      const street = await run('Bank Street 3', {
        named: [[place('Street', { kind: 'street' })]],
        fullText: [1],
        words: [
          ['bank', 3],
          ['street', 90],
        ],
      });
      expect(street.calls).not.toContainEqual(expect.stringMatching(/^category:/));
      expect(street.step).toBe('full-text');
    });

    it('is no category when the whole query is also a town', async () => {
      const r = await run('Spring', { named: [[place('Spring')], [place('Spring')]], fullText: [1] });
      expect(r.calls).not.toContainEqual(expect.stringMatching(/^category:/));
    });

    it('is no category when the whole query, the rest included, is the name of a place', async () => {
      const castle = place('Schloss Vaduz', { kind: 'poi' });
      const r = await run('Schloss Vaduz', { named: [[castle], [castle]], fullText: [1] });
      expect(r.calls).not.toContainEqual(expect.stringMatching(/^category:/));
      expect(r.step).toBe('full-text');
    });
  });

  describe('named-region', () => {
    it('binds the search to a country named at the end', async () => {
      const r = await run('Vaduz, Italy', { named: [[place('Vaduz')], [place('Vaduz')]], fullText: [0] });
      expect(r.state.region).toBe('IT');
    });

    it('does not bind when the whole query is the name of a place ("Made in Italy", a shop)', async () => {
      const shop = place('Made in Italy', { kind: 'poi' });
      const r = await run('Made in Italy', { named: [[shop], [shop]], fullText: [1] });
      expect(r.state.namedRegion).toBeNull();
      expect(r.step).toBe('full-text');
    });
  });
});
