// The text score's terms, named in one place (as Pelias names its boosts): a text search's score is
// the trigram similarity of the address to the query plus each term that holds (sql/text-search.sql.ts).
// The ranked word lists score with the database's lis_rank_score, whose text is written from these
// weights (rank-score-function.ts; a unit spec fails until a migration gives the database that text), and
// test/medium/score-weights.spec.ts scores the same records both ways.
export const SCORE_WEIGHTS = {
  /** The query is the record's location code, ignoring case and separators. */
  locationCode: 10,
  /** The whole address is the query (normalized). */
  wholeAddress: 2,
  /** The address starts with the query. */
  startsWithQuery: 0.5,
  /** The address holds every word of the query whole (not only as the start of a word). */
  everyWordWhole: 0.5,
} as const;

// The text score's word terms, in the order the score adds them: what a term means is its weight's
// doc above; each writer of the score (sql/text-search.sql.ts for a search's statement, and
// rank-score-function.ts for lis_rank_score) gives every term its condition, typed by this list, and
// adds the weight of each that holds to the trigram similarity (and, in a search, the location code's).
export const WORD_TERMS = ['wholeAddress', 'startsWithQuery', 'everyWordWhole'] as const;
export type WordTerm = (typeof WORD_TERMS)[number];

// The boosts of a place's imagery (sql/place-pins.sql.ts, place-matching/place-ranking.ts). A place's
// step is larger than any text score (at most 4, code matches aside) plus the best-view terms of an
// address (under 3.1), so a better place's imagery always comes first and text only orders the
// imagery of one place.
export const PIN_WEIGHTS = {
  /** Every pinned record: the last place the query names. */
  base: 20,
  /** Per place below it in the ranking of the places the query names. */
  step: 10,
  /** A record of the named address that shows it (faces it, or is 360-degree). */
  showsAddress: 2,
  /**
   * At most this much for being near the named address's point, halved at nearnessHalfM metres
   * (1 / (1 + d / nearnessHalfM)): of two records given the same address, the one beside it shows it
   * better than one taken down the street, which only recovered the address as its nearest.
   */
  nearness: 1,
  nearnessHalfM: 10,
  /**
   * Of a named address's own records, the newer a little more: a day after 1970-01-01 adds
   * 1 / recencyDays (under 0.1 for any capture before the year 2243, so recency only orders records
   * the other terms rank alike).
   */
  recencyDays: 1_000_000,
  /** Other records facing the named address within VIEW_RADIUS_M rank this far below its own. */
  viewedBelowOwn: 3,
  /**
   * A named town's records: at most this much for being near its centre, halved at
   * centreHalfM metres. Near the centre a few metres outweigh every text term (at most 4) that differs
   * between its records (an address that is only the town's name, "Balzers, Liechtenstein", is one far
   * from every street; the record at a hamlet's point may hold only its street's name): the imagery of
   * "Balzers" is first the imagery of its centre, nearest first.
   */
  centre: 20,
  centreHalfM: 50,
} as const;

// The rank of a place a query names (place-matching/place-ranking.ts): its importance plus how well
// the query names it, plus these.
export const PLACE_RANK_WEIGHTS = {
  /** The place's label holds every word of the query whole (a tiebreak, below any name fit step). */
  labelHoldsEveryWord: 0.01,
  /** An address on a street spelt as the query spells it, before one spelt otherwise (Sankt for St.). */
  spelledAsTyped: 1,
} as const;
