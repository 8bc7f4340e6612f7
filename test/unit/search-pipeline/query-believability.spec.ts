import type { PlaceCandidate } from '../../../src/search/place-matching/place-ranking';
import { placeCoversQuery, placeResemblesQuery } from '../../../src/search/pipeline/query-believability';
import { HELD_BY_NO_ADDRESS, MISSPELT, TO_CORRECT, unknownWords } from '../../../src/search/vocabulary/typo-correction';
import { buildTextQuery } from '../../../src/search/query/text-query';
import { Vocabulary } from '../../../src/search/vocabulary/vocabulary-lookup';

const place = (name: string, label: string, altNames = ''): PlaceCandidate => ({
  id: 'p',
  kind: 'locality',
  name,
  label,
  altNames,
  importance: 0.5,
  lon: 0,
  lat: 0,
  similarity: 0.5,
});
const q = (text: string) => buildTextQuery(text)!;

describe('placeCoversQuery', () => {
  const vaduz = place('Vaduz', 'Vaduz, Liechtenstein');
  it('holds when every word is the place’s, the last possibly half typed', () => {
    expect(placeCoversQuery(q('Vaduz'), vaduz)).toBe(true);
    expect(placeCoversQuery(q('Vaduz Liechtenst'), vaduz)).toBe(true);
    expect(
      placeCoversQuery(q('Herrengasse 35, 9490 Vaduz'), place('Herrengasse 35', 'Herrengasse 35, 9490 Vaduz')),
    ).toBe(true);
  });
  it('fails when a word is not the place’s: a street the town does not have', () => {
    expect(placeCoversQuery(q('Herrengasse Vaduz'), vaduz)).toBe(false);
  });
});

describe('placeResemblesQuery', () => {
  it('accepts a typo within the allowance of each word, refuses names that only look alike', () => {
    expect(placeResemblesQuery(q('New Yrok'), place('New York City', 'New York City, New York, United States'))).toBe(
      true,
    );
    expect(placeResemblesQuery(q('New Yrok'), place('New Yekepa', 'New Yekepa, Nimba County, Liberia'))).toBe(false);
    expect(placeResemblesQuery(q('Orchard Road'), place('Orchards', 'Orchards, Washington, United States'))).toBe(
      false,
    );
    expect(placeResemblesQuery(q('Muenchen'), place('Munich', 'Munich, Bavaria, Germany', 'München Muenchen'))).toBe(
      true,
    );
  });
});

describe('unknownWords', () => {
  const vocabulary = new Vocabulary(
    [
      ['orchard', 12],
      ['road', 900],
      ['vaduz', 40],
    ],
    1_000,
  );
  const someWordUnknown = (query: ReturnType<typeof q>, v: Vocabulary) => unknownWords(query, v, MISSPELT).length > 0;
  it('misspelt: none when every word is an address word (they match nothing together), else the word none holds', () => {
    expect(someWordUnknown(q('Orchard Road'), vocabulary)).toBe(false);
    expect(someWordUnknown(q('Orchard Rd'), vocabulary)).toBe(false);
    expect(someWordUnknown(q('Orchrad Road'), vocabulary)).toBe(true);
    expect(someWordUnknown(q('Vaduz 35'), vocabulary)).toBe(false);
    expect(someWordUnknown(q('Orchard Ro'), vocabulary)).toBe(false);
  });

  it('one rule, asked of different words: the last word half typed, whole, or known by any spelling', () => {
    // "roa" starts "road": known while typed, unknown as a whole word (its nearest words are asked for).
    expect(unknownWords(q('Orchard Roa'), vocabulary, MISSPELT)).toEqual([]);
    expect(unknownWords(q('Orchard Roa'), vocabulary, TO_CORRECT)).toEqual(['roa']);
    expect(unknownWords(q('Orchard Roa'), vocabulary, HELD_BY_NO_ADDRESS)).toEqual([]);
    // A word known by one of its spellings ("highway" for "hwy") is held by an address; as typed it is not.
    const highway = new Vocabulary(
      [
        ['highway', 5],
        ['pacific', 5],
      ],
      100,
    );
    expect(unknownWords(q('Pacific Hwy 1'), highway, HELD_BY_NO_ADDRESS)).toEqual([]);
    expect(unknownWords(q('Pacific Hwy 1'), highway, MISSPELT)).toEqual(['hwy']);
    expect(unknownWords(q('Orchrad Road'), vocabulary, HELD_BY_NO_ADDRESS)).toEqual(['orchrad']);
  });
});
