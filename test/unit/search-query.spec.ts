import fc from 'fast-check';
import { equivalentWords } from '../../src/search/vocabulary/abbreviations';
import { buildTextQuery } from '../../src/search/query/text-query';
import { collapseWhitespace, joinDottedInitials, tokenize, wordsWithoutNoise } from '../../src/search/query/tokenize';
import { locationCodeOf } from '../../src/search/query/location-code';
import { resultIdFor } from '../../src/search/answer/result-id';
import { foldText } from '../../src/search/text-fold/text-fold';

describe('tokenize', () => {
  it('folds case, accents and ß like unaccent() does', () => {
    expect(tokenize('Tübinger Straße')).toEqual(['tubinger', 'strasse']);
    expect(tokenize('KØBENHAVN Æbelø')).toEqual(['kobenhavn', 'aebelo']);
  });

  it('splits on anything that is not a letter or digit', () => {
    expect(tokenize('Herrengasse 35, 9490 Vaduz')).toEqual(['herrengasse', '35', '9490', 'vaduz']);
    expect(tokenize("'; DROP TABLE imagery; --")).toEqual(['drop', 'table', 'imagery']);
    expect(tokenize('Fürst-Franz-Josef-Strasse 19/2')).toEqual(['furst', 'franz', 'josef', 'strasse', '19', '2']);
    expect(tokenize('%#$@*&;#$!')).toEqual([]);
  });

  it('keeps non-Latin scripts', () => {
    expect(tokenize('東京 Москва')).toEqual(['東京', 'москва']);
  });

  it('drops chunks with more symbols than letters and digits', () => {
    expect(tokenize('%#$@*&l;der#$!')).toEqual([]);
    expect(tokenize('Herrengasse 35 ;-) <-> 💩')).toEqual(['herrengasse', '35']);
    expect(tokenize('🏠')).toEqual([]);
  });

  it('drops a whole query with more symbols than letters and digits', () => {
    expect(tokenize("' OR '1'='1")).toEqual([]);
    expect(tokenize('Vaduz ;-) <-> 💩💩')).toEqual([]);
    expect(tokenize("'; DROP TABLE imagery; --")).toEqual(['drop', 'table', 'imagery']);
  });

  it('drops single letters glued to symbols, but keeps address abbreviations', () => {
    expect(tokenize('l;der')).toEqual(['der']);
    expect(tokenize('a&b Vaduz !c')).toEqual(['vaduz']);
    expect(tokenize("N. Main St. O'Brien")).toEqual(['n', 'main', 'st', 'o', 'brien']);
    expect(tokenize('E Street')).toEqual(['e', 'street']);
  });

  it('takes a fast path for plain text that gives what the noise rules give', () => {
    // Letters, digits, spaces, address punctuation and symbols, in any order and mix.
    const char = fc.constantFrom(..."aZé9 .,-'’/&;!💩ßÆ東".split(''), '💩');
    fc.assert(
      fc.property(fc.array(char, { maxLength: 40 }), (chars) => {
        const text = chars.join('');
        expect(tokenize(text)).toEqual(wordsWithoutNoise(foldText(text)));
      }),
      { numRuns: 5000, seed: 14 },
    );
    expect(tokenize('St. Gallen, Appenzell-Ausserrhoden')).toEqual(['st', 'gallen', 'appenzell', 'ausserrhoden']);
  });

  it('uses at most 32 words', () => {
    expect(tokenize(Array.from({ length: 40 }, (_, i) => `w${i}`).join(' '))).toHaveLength(32);
  });
});

describe('buildTextQuery', () => {
  it('matches every word and the last one as a prefix', () => {
    expect(buildTextQuery('Herrengasse  35')).toEqual({
      text: 'Herrengasse 35',
      words: ['herrengasse', '35'],
      groups: [['herrengasse'], ['35']],
      tsquery: "'herrengasse' & '35':*",
      tsqueryExact: "'herrengasse' & '35'",
      tsqueryLeading: "'herrengasse'",
      code: 'herrengasse35',
    });
  });

  it('lets abbreviations match their long forms and the other way round', () => {
    expect(buildTextQuery('Main St')!.tsquery).toBe("'main' & ('st':* | 'saint' | 'sankt' | 'street')");
    expect(buildTextQuery('Main Street Springfield')!.tsqueryExact).toBe("'main' & ('street' | 'st') & 'springfield'");
    expect(buildTextQuery('Bahnhofstr. 12')!.groups[0]).toEqual(['bahnhofstr', 'bahnhofstrasse']);
    expect(buildTextQuery('Bahnhofstraße 12')!.groups[0]).toEqual(['bahnhofstrasse', 'bahnhofstr']);
  });

  it('returns null when nothing searchable is left', () => {
    expect(buildTextQuery('?!  ...')).toBeNull();
    expect(buildTextQuery('%#$@*&l;der#$!')).toBeNull();
  });

  it('never lets quotes or operators through', () => {
    expect(buildTextQuery("a' | b:* & !c <-> (d)")).toBeNull();
    expect(buildTextQuery("it's  b:c 7 Vaduz & Schaan")!.tsquery).toBe(
      "'it' & ('s' | 'south' | 'sth') & '7' & 'vaduz' & 'schaan':*",
    );
  });
});

describe('equivalentWords', () => {
  it('reads the abbreviation table in both directions', () => {
    expect(equivalentWords('ave').sort()).toEqual(['av', 'avenue']);
    expect(equivalentWords('av').sort()).toEqual(['avda', 'ave', 'avenida', 'avenue', 'avenues']);
    expect(equivalentWords('avenue').sort()).toEqual(['av', 'ave', 'avenues']);
    expect(equivalentWords('rd')).toEqual(['road']);
    expect(equivalentWords('vaduz')).toEqual([]);
  });

  it('knows the place-name words of the abbreviation package, and the few it lacks', () => {
    expect(equivalentWords('saint')).toEqual(['st']);
    expect(equivalentWords('st').sort()).toEqual(['saint', 'sankt', 'street']);
    expect(equivalentWords('ste').sort()).toEqual(['sainte']);
    expect(equivalentWords('ft').sort()).toEqual(['fort']);
    expect(equivalentWords('mount')).toEqual(['mt']);
    expect(equivalentWords('mtn')).toEqual(['mountain']);
    expect(equivalentWords('pt').sort()).toEqual(['petit', 'pnt', 'point', 'port']);
    expect(equivalentWords('north').sort()).toEqual(['n', 'nth']);
    expect(equivalentWords('w').sort()).toEqual(['west', 'wst']);
  });

  it('leaves out words of their own that the package lists as abbreviations', () => {
    for (const word of ['la', 'via', 'is', 'co', 'feet']) expect(equivalentWords(word)).toEqual([]);
  });

  it('spells ae, oe and ue as the umlaut the index folds, but not after q', () => {
    expect(equivalentWords('muenchen')).toEqual(['munchen']);
    expect(equivalentWords('koeln')).toEqual(['koln']);
    expect(equivalentWords('zuerich')).toEqual(['zurich']);
    expect(equivalentWords('quebec')).toEqual([]);
    expect(equivalentWords('avenue')).not.toContain('avenu');
  });

  it('expands German compound endings', () => {
    expect(equivalentWords('hauptstr')).toEqual(['hauptstrasse']);
    expect(equivalentWords('hauptstrasse')).toEqual(['hauptstr']);
    expect(equivalentWords('str').sort()).toEqual(['straat', 'strasse']);
  });
});

describe('joinDottedInitials', () => {
  it('writes dotted initials as the code they spell', () => {
    expect(joinDottedInitials('Buffalo, N.Y.')).toBe('Buffalo, NY');
    expect(joinDottedInitials('Washington D.C.')).toBe('Washington DC');
    expect(joinDottedInitials('U.S.A')).toBe('USA');
  });

  it('leaves abbreviations of longer words alone', () => {
    for (const t of ['St. Gallen', 'Ph.D Road', 'Str. 5', 'N. Main St']) expect(joinDottedInitials(t)).toBe(t);
  });
});

describe('locationCodeOf', () => {
  it('ignores case, spaces, dashes and other separators', () => {
    for (const q of ['LI-9490-35', 'li 9490 35', 'li949035', 'Li_9490.35']) expect(locationCodeOf(q)).toBe('li949035');
    expect(locationCodeOf('ZRH')).toBe('zrh');
    expect(locationCodeOf('9490')).toBe('9490');
  });

  it('is null for text that cannot be a code', () => {
    expect(locationCodeOf('Tübinger Straße')).toBeNull();
    expect(locationCodeOf('Herrengasse 35, Vaduz')).toBeNull();
    expect(locationCodeOf('x'.repeat(65))).toBeNull();
  });
});

describe('resultIdFor', () => {
  it('is the same for the same normalized request', () => {
    const a = resultIdFor({ query: '  Herrengasse   35 ', limit: 10 });
    expect(a).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(resultIdFor({ query: 'herrengasse 35', limit: 10 })).toBe(a);
  });

  it('differs when the query or the limit differs', () => {
    const a = resultIdFor({ query: 'herrengasse 35', limit: 10 });
    expect(resultIdFor({ query: 'herrengasse 36', limit: 10 })).not.toBe(a);
    expect(resultIdFor({ query: 'herrengasse 35', limit: 20 })).not.toBe(a);
  });

  it('identifies filters and sort, whatever the key order', () => {
    const a = resultIdFor({ query: 'x', limit: 10 }, { filters: { near: { lat: 1, lon: 2, radius_m: 250 } } });
    expect(resultIdFor({ query: 'x', limit: 10 }, { filters: { near: { radius_m: 250, lon: 2, lat: 1 } } })).toBe(a);
    expect(resultIdFor({ query: 'x', limit: 10 }, { filters: { near: { lat: 1, lon: 2, radius_m: 251 } } })).not.toBe(
      a,
    );
    expect(
      resultIdFor({ query: 'x', limit: 10 }, { filters: { near: { lat: 1, lon: 2, radius_m: 250 } }, sort: 'newest' }),
    ).not.toBe(a);
    expect(resultIdFor({ query: 'x', limit: 10 }, { filters: {} })).toBe(resultIdFor({ query: 'x', limit: 10 }));
    expect(resultIdFor({ limit: 10 }, { filters: { bbox: [1, 2, 3, 4] } })).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('collapses whitespace', () => {
    expect(collapseWhitespace(' a \t b\n c ')).toBe('a b c');
  });
});
