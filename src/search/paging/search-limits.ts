import { RANKED_LIST_SIZE } from '../../search-index/search-index-limits';

// The deepest match a request may page to (page * limit <= COUNT_CAP), and so how many matches a
// search counts (saying when there are more): a total past it could name pages no request may read.
export const COUNT_CAP = 10_000;
// Text searches rank the first this many matches found by score (and at most this many records of
// the places a query names); further matches follow in table order. As many as a ranked list holds.
export const SCORE_CAP = RANKED_LIST_SIZE;
// Records of the places a query names ranked first, at most (and, when the query names an address,
// as many records facing it). The rest of their records follow in the text ranking. Scoring pinned
// records is most of a common name's search (docs/benchmarks.md#fig-pinned-cap).
export const PINNED_RECORDS_CAP = 200;
// Records of a named locality read to find its pinned ones (those whose address names it), at most.
// Most of a town's records name it; a town whose first records mostly name villages linked to it
// pins fewer.
export const LOCALITY_RECORDS_READ = 2_000;
// Vocabulary words fetched per misspelt query word (nearest by trigram distance).
export const WORD_CANDIDATES = 20;

// The page a search reads: `limit` rows after skipping `offset` (offset + limit <= COUNT_CAP).
export interface PageWindow {
  limit: number;
  offset: number;
}

// A nearest-first search counts the matches within its radius only this many pages past the one it
// reads: a circle in a dense block holds thousands of records, and counting up to COUNT_CAP of them
// (each checked against the sphere) cost far more than the page. Past that the total is a lower
// bound (total_exact false) that still shows the next pages; a sparse circle is counted exactly.
export const AREA_PAGES_AHEAD = 9;
export const areaCountCap = (window: PageWindow) =>
  Math.min(COUNT_CAP, window.offset + window.limit * (1 + AREA_PAGES_AHEAD));
