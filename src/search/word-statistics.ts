import { TextQuery } from './search-query';

// How often words occur in addresses, from the column statistics ANALYZE keeps for the tsvector
// (pg_stats.most_common_elems): enough to tell a word in half the catalogue from a rare one.
export interface WordStatistics {
  /** Share of rows holding each frequent word; absent words are rarer than all of these. */
  frequencies: ReadonlyMap<string, number>;
  /** Rows in the catalogue, as of the last ANALYZE. */
  rows: number;
}

export const NO_STATISTICS: WordStatistics = { frequencies: new Map(), rows: 0 };

/** How to send a text query: decided per query from the statistics. */
export interface TextQueryShape {
  /** Look up all words but the last in the index and filter by the last (a prefix) afterwards. */
  splitPrefix: boolean;
  /** Far more matches than the count cap: do not count them. */
  broad: boolean;
}

export const PLAIN_SHAPE: TextQueryShape = { splitPrefix: false, broad: false };

// A prefix matches every frequent word it starts; a group matches any of its words.
function prefixShare(group: string[], stats: WordStatistics): number {
  const [prefix, ...alternatives] = group;
  let share = 0;
  for (const [word, f] of stats.frequencies) if (word.startsWith(prefix) || alternatives.includes(word)) share += f;
  return share;
}

function groupShare(group: string[], stats: WordStatistics): number {
  return group.reduce((sum, w) => sum + (stats.frequencies.get(w) ?? 0), 0);
}

// The largest share of any one word the prefix group matches: a lower bound on its own matches.
function prefixFloor(group: string[], stats: WordStatistics): number {
  const [prefix, ...alternatives] = group;
  let floor = 0;
  for (const [word, f] of stats.frequencies) if (word.startsWith(prefix) || alternatives.includes(word)) floor = Math.max(floor, f);
  return floor;
}

// Split when the last word, as a prefix, is commoner than the rarest other word: the index then
// narrows on that rarer word instead of listing every address the prefix reaches. `broad` needs a
// margin of three over the cap for sampling error and rows changed since the last ANALYZE.
export function shapeTextQuery(query: TextQuery, stats: WordStatistics, countCap: number): TextQueryShape {
  const groups = query.groups;
  const last = groups[groups.length - 1];
  const splitPrefix =
    groups.length > 1 && prefixShare(last, stats) > Math.min(...groups.slice(0, -1).map((g) => groupShare(g, stats)));
  const broad = groups.length === 1 && prefixFloor(last, stats) * stats.rows >= 3 * (countCap + 1);
  return { splitPrefix, broad };
}
