import { equivalentWords } from '../vocabulary/abbreviations';
import { locationCodeOf } from './location-code';
import { collapseWhitespace, tokenize } from './tokenize';
import { anyOf, tsqueryLiteral } from './tsquery';

// A text query as the search sends it: its folded words, each with the spellings that count as the
// same word (vocabulary/abbreviations.ts), and the tsqueries the full-text index reads.
export interface TextQuery {
  /** What ranking compares addresses with (the database normalizes it like addresses). */
  text: string;
  /** The folded words searched, in query order. */
  words: string[];
  /** One group per word: the word first, then spellings that count as the same word. */
  groups: string[][];
  /** Every group required, the last word as a prefix: what the user may still be typing. */
  tsquery: string;
  /** Every group as whole words: ranks exact house numbers above longer ones. */
  tsqueryExact: string;
  /** Every group but the last, as whole words (null for one group): what the GIN index should look up. */
  tsqueryLeading: string | null;
  /** The query as a location code (letters and digits only, lower case), when it can be one. */
  code: string | null;
}

export function buildTextQuery(query: string): TextQuery | null {
  const words = tokenize(query);
  if (words.length === 0) return null;
  return textQueryFromGroups(
    words.map((w) => [w, ...equivalentWords(w)]),
    collapseWhitespace(query),
    locationCodeOf(query),
  );
}

export function textQueryFromGroups(groups: string[][], text: string, code: string | null): TextQuery {
  const last = groups.length - 1;
  const tsquery = groups
    .map((g, i) => anyOf(g.map((w, j) => (i === last && j === 0 ? `${tsqueryLiteral(w)}:*` : tsqueryLiteral(w)))))
    .join(' & ');
  const exact = groups.map((g) => anyOf(g.map(tsqueryLiteral)));
  const tsqueryLeading = groups.length > 1 ? exact.slice(0, -1).join(' & ') : null;
  return {
    text,
    words: groups.map((g) => g[0]),
    groups,
    tsquery,
    tsqueryExact: exact.join(' & '),
    tsqueryLeading,
    code,
  };
}
