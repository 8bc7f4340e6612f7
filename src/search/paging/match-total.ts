import { PageWindow } from './search-limits';

// What a statement learnt about the number of matches, for the page it read.
export interface MatchCount {
  /** Matches counted (up to cap + 1), or the vocabulary's estimate when `estimated`. */
  counted: number;
  /** The count is the vocabulary's estimate, not a count: it may be above what exists. */
  estimated: boolean;
  /** Matches known to exist whatever the estimate (the ranked head and the pinned rows). */
  known: number;
  /** Rows on the page. */
  rows: number;
  /** A match exists past the page (the statement read one row more than the page). */
  more: boolean;
}

/** A count of matches that is exact up to the cap (every search but an estimated text search's). */
export const counted = (matches: number): MatchCount => ({
  counted: matches,
  estimated: false,
  known: 0,
  rows: 0,
  more: false,
});

// The one rule for the total a page reports: never above what exists, so every page 1..pageCount has
// records. A count is exact up to the cap; past it the total is the cap, a lower bound. An estimate is
// not trusted: the total is what is known to exist (the ranked rows, the rows up to this page and the
// one after it), a lower bound that keeps the next page reachable, exact once a page ends short of
// the next row.
export function matchTotal(window: PageWindow, cap: number, count: MatchCount): { total: number; totalExact: boolean } {
  if (!count.estimated) {
    return count.counted > cap ? { total: cap, totalExact: false } : { total: count.counted, totalExact: true };
  }
  if (count.rows > 0 && !count.more) return { total: window.offset + count.rows, totalExact: true };
  if (count.rows === 0 && window.offset === 0) return { total: 0, totalExact: true };
  const seen = count.rows > 0 ? window.offset + count.rows + 1 : 0;
  return { total: Math.min(Math.max(count.known, seen), cap), totalExact: false };
}

/** The response's `pageTotal`: the pages the match total fills (0 when nothing matched). */
export const pageCount = (total: number, limit: number): number => Math.ceil(total / limit);
