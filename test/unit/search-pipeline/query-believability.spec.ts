import type { PlaceCandidate } from '../../../src/search/place-matching/place-ranking';
import {
  placeCoversQuery,
  placeResemblesQuery,
  someWordUnknown,
} from '../../../src/search/pipeline/query-believability';
import { buildTextQuery } from '../../../src/search/search-query';
import { Vocabulary } from '../../../src/search/vocabulary-lookup';

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

describe('someWordUnknown', () => {
  const vocabulary = new Vocabulary(
    [
      ['orchard', 12],
      ['road', 900],
      ['vaduz', 40],
    ],
    1_000,
  );
  it('is false when every word is an address word (they match nothing together) and true for a word none holds', () => {
    expect(someWordUnknown(q('Orchard Road'), vocabulary)).toBe(false);
    expect(someWordUnknown(q('Orchard Rd'), vocabulary)).toBe(false);
    expect(someWordUnknown(q('Orchrad Road'), vocabulary)).toBe(true);
    expect(someWordUnknown(q('Vaduz 35'), vocabulary)).toBe(false);
    expect(someWordUnknown(q('Orchard Ro'), vocabulary)).toBe(false);
  });
});
