// The text score's terms, named in one place (as Pelias names its boosts): a text search's score is
// the trigram similarity of the address to the query plus each term that holds (sql/text-search.sql.ts).
// The ranked word lists score with the database's lis_rank_score (the ranked_word_lists migration):
// the same terms but the location code's, which test/medium/score-weights.spec.ts checks by scoring
// the same records both ways.
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
