import { ignoredWords } from '../../../src/search/answer/ignored-words';
import { initialState, StepAnswer } from '../../../src/search/pipeline/text-search-state';
import { RankedPlace } from '../../../src/search/place-matching/place-ranking';
import { NO_FILTERS } from '../../../src/search/planning/search-planner';
import { buildTextQuery } from '../../../src/search/query/text-query';
import { EMPTY_VOCABULARY } from '../../../src/search/vocabulary/vocabulary-lookup';
import { searchRow } from '../../helpers/search-rows';

const state = (typed: string, searched = typed) => {
  const s = initialState(buildTextQuery(typed)!, { limit: 10, offset: 0 }, NO_FILTERS, EMPTY_VOCABULARY);
  return { ...s, text: { ...buildTextQuery(searched)!, text: s.typed.text } };
};
const answer = (addresses: string[], over: Partial<StepAnswer> = {}): StepAnswer => ({
  page: {
    total: addresses.length,
    totalExact: true,
    codeMatched: false,
    rows: addresses.map((a) => searchRow({ address: a })),
  },
  match: 'text',
  places: [],
  corrections: [],
  ...over,
});
const ignored = (typed: string, a: StepAnswer, searched?: string) =>
  ignoredWords(a, state(typed, searched), a.page.rows);

const postmuseum = { name: 'Postmuseum', label: 'Postmuseum, Städtle 37, 9490 Vaduz', altNames: '' } as RankedPlace;

describe('ignoredWords', () => {
  it('names the words no record of the page holds and nothing else explains', () => {
    expect(ignored('herrengasse 35 vaduz kebab', answer(['Herrengasse 35, 9490 Vaduz']))).toEqual(['kebab']);
    expect(ignored('herrengasse 35 vaduz', answer(['Herrengasse 35, 9490 Vaduz']))).toEqual([]);
  });

  it('counts a word held by any record of the page, the last word as a prefix, and abbreviations', () => {
    expect(ignored('herrengasse städtle', answer(['Herrengasse 35', 'Städtle 37']))).toEqual([]);
    expect(ignored('herrengasse 35 vad', answer(['Herrengasse 35, 9490 Vaduz']))).toEqual([]);
    expect(ignored('12 main st', answer(['12 Main Street']))).toEqual([]);
  });

  it('counts the words of the places the answer went through, of a named region, and corrected ones', () => {
    expect(ignored('postmuseum', answer(['Städtle 35, 9490 Vaduz'], { places: [postmuseum] }))).toEqual([]);
    // named-region searched "vaduz" and took "liechtenstein".
    expect(ignored('vaduz liechtenstein', answer(['Städtle 35, 9490 Vaduz']), 'vaduz')).toEqual([]);
    const corrections = [{ from: 'herengasse', to: 'herrengasse' }];
    expect(ignored('herengasse', answer(['Herrengasse 35'], { match: 'corrected', corrections }))).toEqual([]);
  });

  it('counts a word the search widened to other spellings when a record holds one of them', () => {
    const searched = { ...buildTextQuery('bangor boneville')!, groups: [['bangor'], ['boneville', 'bonneville']] };
    expect(
      ignored('bangor boneville', answer(['Bangor Street, Bonneville'], { match: 'corrected', searched })),
    ).toEqual([]);
  });

  it('ignores nothing on an empty page', () => {
    expect(ignored('kebab', answer([]))).toEqual([]);
  });
});
