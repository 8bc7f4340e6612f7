import { buildTextQuery, collapseWhitespace, resultIdFor, tokenize } from '../../src/search/search-query';

describe('tokenize', () => {
  it('folds case, accents and ß like unaccent() does', () => {
    expect(tokenize('Tübinger Straße')).toEqual(['tubinger', 'strasse']);
    expect(tokenize('KØBENHAVN Æbelø')).toEqual(['kobenhavn', 'aebelo']);
  });

  it('splits on anything that is not a letter or digit', () => {
    expect(tokenize("Herrengasse 35, 9490 Vaduz")).toEqual(['herrengasse', '35', '9490', 'vaduz']);
    expect(tokenize("'; DROP TABLE imagery; --")).toEqual(['drop', 'table', 'imagery']);
    expect(tokenize('%#$@*&;#$!')).toEqual([]);
  });

  it('keeps non-Latin scripts', () => {
    expect(tokenize('東京 Москва')).toEqual(['東京', 'москва']);
  });
});

describe('buildTextQuery', () => {
  it('matches every word and the last one as a prefix', () => {
    expect(buildTextQuery('Herrengasse  35')).toEqual({
      text: 'Herrengasse 35',
      tsquery: "'herrengasse' & '35':*",
      tsqueryExact: "'herrengasse' & '35'",
    });
  });

  it('returns null when nothing searchable is left', () => {
    expect(buildTextQuery('?!  ...')).toBeNull();
  });

  it('never lets quotes or operators through', () => {
    const q = buildTextQuery("a' | b:* & !c <-> (d)")!;
    expect(q.tsquery).toBe("'a' & 'b' & 'c' & 'd':*");
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

  it('collapses whitespace', () => {
    expect(collapseWhitespace(' a \t b\n c ')).toBe('a b c');
  });
});
