import { buildTextQuery } from '../../src/search/query/text-query';
import {
  allowedTypos,
  correctionsOf,
  correctQuery,
  editDistance,
  wordsToCorrect,
} from '../../src/search/vocabulary/typo-correction';

describe('editDistance', () => {
  it('counts insertions, deletions, substitutions and neighbour swaps as one each', () => {
    expect(editDistance('vaduz', 'vaduz')).toBe(0);
    expect(editDistance('vadus', 'vaduz')).toBe(1);
    expect(editDistance('vadzu', 'vaduz')).toBe(1);
    expect(editDistance('herengasse', 'herrengasse')).toBe(1);
    expect(editDistance('herrengassee', 'herrengasse')).toBe(1);
    expect(editDistance('hrrengase', 'herrengasse')).toBe(2);
    expect(editDistance('', 'abc')).toBe(3);
  });

  it('measures against the closest prefix for words still being typed', () => {
    expect(editDistance('herengas', 'herrengasse', true)).toBe(1);
    expect(editDistance('herengas', 'herrengasse')).toBe(3);
    expect(editDistance('stut', 'stuttgart', true)).toBe(0);
  });
});

describe('allowedTypos', () => {
  it('allows none for short words and numbers, one up to five letters, two beyond', () => {
    expect(allowedTypos('st')).toBe(0);
    expect(allowedTypos('9490')).toBe(0);
    expect(allowedTypos('19b')).toBe(0);
    expect(allowedTypos('rue')).toBe(1);
    expect(allowedTypos('vaduz')).toBe(1);
    expect(allowedTypos('schaan')).toBe(2);
  });
});

describe('correctQuery', () => {
  const query = buildTextQuery('Herengase 35 Vadus')!;

  it('asks the vocabulary only about words that may hold typos', () => {
    expect(wordsToCorrect(query)).toEqual(['herengase', 'vadus']);
  });

  it('widens misspelt words to vocabulary words within their allowance, closest first', () => {
    const candidates = new Map([
      ['herengase', ['herrengasse', 'herrenweg', 'hengase', 'bergasse']],
      ['vadus', ['vaduz', 'vadu', 'valdus', 'varus', 'vaals']],
    ]);
    const corrected = correctQuery(query, candidates)!;
    expect(corrected.groups).toEqual([
      ['herengase', 'herrengasse', 'hengase'],
      ['35'],
      ['vadus', 'vaduz', 'vadu', 'valdus', 'varus'],
    ]);
    expect(corrected.text).toBe('herrengasse 35 vaduz');
    expect(corrected.tsquery).toBe(
      "('herengase' | 'herrengasse' | 'hengase') & '35' & ('vadus':* | 'vaduz' | 'vadu' | 'valdus' | 'varus')",
    );
  });

  it('adds the long and short forms of a corrected abbreviation', () => {
    const corrected = correctQuery(
      buildTextQuery('Stret Main')!,
      new Map([['stret', ['stretch', 'street', 'streets']]]),
    )!;
    expect(corrected.groups[0]).toEqual(['stret', 'street', 'st', 'stretch', 'streets', 'sts']);
  });

  it('measures the allowance by the longer word: a dropped ß is one typo', () => {
    const corrected = correctQuery(buildTextQuery('Tübinger Strae 12')!, new Map([['strae', ['strasse', 'strand']]]))!;
    expect(corrected.groups[1]).toEqual(['strae', 'strasse', 'str', 'strand']);
    expect(correctQuery(buildTextQuery('Rue 12')!, new Map([['rue', ['rules']]]))).toBeNull();
  });

  it('of two spellings as close to a half-typed last word, takes the one closer whole (bostn: boston, not bostic)', () => {
    const typed = buildTextQuery('Bostn')!;
    const corrected = correctQuery(typed, new Map([['bostn', ['bostic', 'boston']]]))!;
    expect(correctionsOf(typed, corrected)).toEqual([{ from: 'bostn', to: 'boston' }]);
  });

  it('lets the last word match longer vocabulary words it is the start of', () => {
    const corrected = correctQuery(buildTextQuery('Main Stret')!, new Map([['stret', ['street', 'stretch']]]))!;
    expect(corrected.groups[1]).toEqual(['stret', 'stretch', 'street', 'st']);
  });

  it('returns null when no candidate is close enough', () => {
    expect(correctQuery(query, new Map([['vadus', ['balzers']]]))).toBeNull();
    expect(correctQuery(query, new Map())).toBeNull();
  });
});
