import { NameWordsCache } from '../../src/search/place-matching/place-ranking';

describe('NameWordsCache', () => {
  it('tokenizes each name of a place once and keeps at most its bound of characters, oldest out first', () => {
    const cache = new NameWordsCache(30, true);
    expect(cache.of('München | Munich')).toEqual([['munchen'], ['munich']]);
    expect(cache.heldChars).toBe(16);
    const again = cache.of('München | Munich');
    expect(cache.of('München | Munich')).toBe(again); // the same array: not tokenized again
    cache.of('Wien | Vienna'); // 13 more: 29
    expect(cache.heldChars).toBe(29);
    cache.of('Roma'); // 4 more would pass 30: the oldest (16) goes
    expect(cache.heldChars).toBe(17);
    expect(cache.of('München | Munich')).not.toBe(again);
    // A string longer than the bound is tokenized, never held.
    const long = Array.from({ length: 10 }, (_, i) => `Name${i}`).join(' | ');
    expect(cache.of(long)).toHaveLength(10);
    expect(cache.heldChars).toBeLessThanOrEqual(30);
  });

  it('tokenizes a name shared by several places once, even when their whole strings are not held', () => {
    const cache = new NameWordsCache(60, true); // room for every single name, not for three whole strings
    const reno = cache.of('Reno | NV | United States');
    const lakewood = cache.of('Lakewood | CO | United States');
    expect(lakewood).toEqual([['lakewood'], ['co'], ['united', 'states']]);
    expect(lakewood[2]).toBe(reno[2]); // the country's words: one array for both places
    cache.of('Springfield | IL | United States'); // the whole strings cycle out...
    expect(cache.of('Reno | NV | United States')).not.toBe(reno);
    expect(cache.of('Reno | NV | United States')[2]).toBe(reno[2]); // ...the shared name stays
  });
});
