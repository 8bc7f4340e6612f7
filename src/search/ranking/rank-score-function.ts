import { SCORE_WEIGHTS, WORD_TERMS, WordTerm } from './score-weights';

// The ranked word lists score in the database (lis_rank_score, called by the lists' upkeep inside
// PostgreSQL, where no parameter from here can reach). Its text is written here from SCORE_WEIGHTS, so the
// weights have one home: test/unit/rank-score-function.spec.ts fails while the function the migrations
// leave (src/database/functions/lis_rank_score.sql, itself checked against a migrated database) differs
// from this text, and prints the statement a new migration needs. A text search's statement adds the
// same WORD_TERMS with the same weights (sql/text-search.sql.ts). The location code's weight is not a
// word's: a ranked list holds words, never a code.

type WordWeights = Record<WordTerm, number>;

// Each word term's condition on the function's arguments (a whole word holds every word whole).
const HOLDS: Record<WordTerm, string> = {
  wholeAddress: `address_norm = rtrim(term, '*')`,
  startsWithQuery: `starts_with(address_norm, rtrim(term, '*'))`,
  everyWordWhole: `right(term, 1) <> '*' OR address_tsv @@ to_tsquery('simple', quote_literal(rtrim(term, '*')))`,
};

/** The body of lis_rank_score(address_norm, address_tsv, term): a term is a word, or a prefix ending in '*'. */
export function rankScoreFunctionBody(weights: WordWeights = SCORE_WEIGHTS): string {
  const terms = WORD_TERMS.map((t) => `\n    + CASE WHEN ${HOLDS[t]} THEN ${weights[t]} ELSE 0 END`).join('');
  return `\n  SELECT (similarity(address_norm, rtrim(term, '*'))${terms})::real\n`;
}

/** What a migration runs to give the database the function of the current weights. */
export function rankScoreFunctionStatement(weights: WordWeights = SCORE_WEIGHTS): string {
  return (
    'CREATE OR REPLACE FUNCTION "lis_rank_score"(address_norm TEXT, address_tsv TSVECTOR, term TEXT) RETURNS REAL\n' +
    `  LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$${rankScoreFunctionBody(weights)}$$;\n` +
    '-- then rebuild the ranked word lists: their stored scores are the old weights\n'
  );
}
