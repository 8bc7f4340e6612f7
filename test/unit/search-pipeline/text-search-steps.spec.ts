import { runTextSearch } from '../../../src/search/pipeline/text-search.pipeline';
import { TEXT_SEARCH_STEPS } from '../../../src/search/pipeline/text-search.steps';
import { boundAsTyped } from '../../../src/search/pipeline/text-search.predicates';
import { initialState, meantPlaces, TextSearchState, withLearnt } from '../../../src/search/pipeline/text-search-state';
import { SearchPlan } from '../../../src/search/planning/search-planner';
import { buildTextQuery } from '../../../src/search/query/text-query';
import { place, plan, run, scripted, window } from '../../helpers/scripted-search-steps';

// The control flow of the text search: which step runs when, what it leaves for the next, which one
// answers. The statements themselves run on a real database (test/medium/search*.spec.ts,
// place-search*.spec.ts); here the repository and the place matcher answer from lists and record calls.
describe('the text search steps', () => {
  it('are one list of named steps, strict first and the similarity fallback last', () => {
    expect(TEXT_SEARCH_STEPS.map((s) => s.name)).toEqual([
      'named-region',
      'region-conflict',
      'named-region-alone',
      'named-category',
      'named-places',
      'places-in-circle',
      'whole-query-places',
      'misspelt-name',
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
      'fallback-street',
      'fallback-locality',
      'fallback-region',
      'nothing-found',
    ]);
    // Each condition is a named predicate in `when`; `always` only where the step has none.
    expect(TEXT_SEARCH_STEPS.filter((s) => s.when.name === 'always').map((s) => s.name)).toEqual([
      'named-places',
      'word-corrections',
      'nothing-found',
    ]);
    expect(TEXT_SEARCH_STEPS.filter((s) => s.final).map((s) => s.name)).toEqual([
      'region-conflict',
      'named-region-alone',
      'nothing-found',
    ]);
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
      expect(boundAsTyped(r.state)).toBe(false);
      expect(r.state.ran).not.toContain('full-text');
    });
  });

  describe('misspelt-name', () => {
    it("answers a misspelling that names a place through its other names with the right spelling's search", async () => {
      const london = place('London', { altNames: 'Londn' });
      const r = await run('Londn', {
        words: [['london', 30]],
        namedBy: { londn: [london], london: [london, place('London', { id: 'ontario' })] },
        fullTextBy: { london: 30 },
      });
      expect(r.step).toBe('misspelt-name');
      expect(r.answer).toMatchObject({ match: 'corrected', corrections: [{ from: 'londn', to: 'london' }] });
      expect(r.answer.searched!.words).toEqual(['london']);
      expect(r.answer.places).toHaveLength(2);
      expect(r.state.ran).not.toContain('full-text');
    });

    it('does not run for a word an address holds, nor for another name unlike the name (Cologne of Köln)', async () => {
      const held = await run('Londn', {
        words: [['londn', 2]],
        named: [[place('London', { altNames: 'Londn' })]],
        fullText: [2],
      });
      expect(held.step).toBe('full-text');
      const other = await run('Cologne', {
        words: [['koln', 2]],
        named: [[place('Köln', { altNames: 'Cologne' })]],
        fullText: [2],
      });
      expect(other.step).toBe('full-text');
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

  it("corrected-places: a correction names the meant place's word among the spellings tried", async () => {
    const chicago = place('Chicago');
    const r = await run('Chicao', {
      words: [
        ['chicago', 90],
        ['chica', 3],
      ],
      candidates: { chicao: ['chica', 'chicago'] },
      named: [[], [chicago]],
      fullText: [5],
    });
    expect(r.answer).toMatchObject({ match: 'corrected', corrections: [{ from: 'chicao', to: 'chicago' }] });
  });

  describe('misspelt-places and around-meant-place', () => {
    it('asks for the names most like the query when no correction names a place', async () => {
      const schaan = place('Schaan', { similarity: 0.6 });
      const r = await run('Shcaan', { misspelt: [schaan], fullText: [0], area: 2 });
      expect(r.calls).toContain('misspelt');
      expect(r.step).toBe('around-meant-place');
      expect(r.answer).toMatchObject({ match: 'nearby', places: [schaan] });
      expect(r.answer.corrections).toEqual([{ from: 'shcaan', to: 'schaan' }]);
    });

    it('says which words a similar name corrected when the vocabulary corrected none', async () => {
      const paris = place('Paris', { similarity: 0.7 });
      const r = await run('Pariss', { misspelt: [paris], fullText: [30] });
      expect(r.step).toBe('meant-place-full-text');
      expect(r.answer).toMatchObject({ match: 'corrected', corrections: [{ from: 'pariss', to: 'paris' }] });
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
        initialState(buildTextQuery('Vaduz, LIE')!, window, outside, await deps.repository.vocabulary()),
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
      expect(meantPlaces(r.state).map((p) => p.name)).toEqual(['New York']);
      expect(r.answer.places.map((p) => p.name)).toEqual(['New York']);
    });
  });

  it('the runner refuses a list without a final step rather than answering nothing silently', async () => {
    const steps = TEXT_SEARCH_STEPS.filter((s) => !s.final);
    await expect(run('Qwzrtx', {}, steps)).rejects.toThrow(/final step/);
  });

  it('keeps what each step learnt for the next, in a new state: no step changes the one it is given', async () => {
    const { deps } = scripted({ named: [[place('Vaduz')]] });
    const first: TextSearchState = initialState(
      buildTextQuery('Vaduz')!,
      window,
      plan,
      await deps.repository.vocabulary(),
    );
    let state = first;
    const upToPlaces = TEXT_SEARCH_STEPS.slice(0, TEXT_SEARCH_STEPS.findIndex((s) => s.name === 'named-places') + 1);
    for (const step of upToPlaces) {
      if (!(await step.when(state, deps))) continue;
      const outcome = await step.run(state, deps);
      if (outcome && 'learnt' in outcome) state = withLearnt(state, outcome.learnt);
    }
    expect(state.places.map((p) => p.name)).toEqual(['Vaduz']);
    expect(boundAsTyped(state)).toBe(true);
    expect(first.places).toEqual([]);
  });
});
