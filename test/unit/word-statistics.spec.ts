import { buildTextQuery } from '../../src/search/search-query';
import { NO_STATISTICS, shapeTextQuery, WordStatistics } from '../../src/search/word-statistics';

const stats = (rows: number, shares: Record<string, number>): WordStatistics => ({ frequencies: new Map(Object.entries(shares)), rows });
const shape = (q: string, s: WordStatistics) => shapeTextQuery(buildTextQuery(q)!, s, 10_000);

describe('shapeTextQuery', () => {
  const catalogue = stats(1_000_000, { street: 0.34, st: 0.01, united: 0.6, states: 0.6, statesboro: 0.001, jefferson: 0.013, valley: 0.004 });

  it('splits off a last word that is commoner than the rarest other word', () => {
    expect(shape('101 Valley Street, United States', catalogue).splitPrefix).toBe(true);
  });

  it('keeps a rare last word in the index lookup, where it narrows most', () => {
    expect(shape('street jeffers', catalogue).splitPrefix).toBe(false);
    expect(shape('Valley Street, Bluffs', catalogue).splitPrefix).toBe(false);
  });

  it('calls one word broad when one word it reaches is in over three times the cap', () => {
    expect(shape('street', catalogue).broad).toBe(true); // 340,000 rows
    expect(shape('jeff', catalogue).broad).toBe(false); // 13,000: counted
    expect(shape('united states', catalogue).broad).toBe(false); // two words: no lower bound
    expect(shape('street', stats(50_000, { street: 0.34 })).broad).toBe(false); // 17,000
  });

  it('without statistics (a fresh or never analysed catalogue) sends the plain query', () => {
    expect(shape('101 Valley Street, United States', NO_STATISTICS)).toEqual({ splitPrefix: false, broad: false });
    expect(shape('street', NO_STATISTICS)).toEqual({ splitPrefix: false, broad: false });
  });
});
