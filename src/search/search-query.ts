import { v5 as uuidv5 } from 'uuid';
import { equivalentWords } from './abbreviations';
import { foldText } from './text-fold/text-fold';

// Fixed namespace so result ids are stable across instances and restarts.
const RESULT_ID_NAMESPACE = '6f3b9d52-2d7e-4a8c-9a51-1f0c5b7e2a10';
const MAX_TOKENS = 32;
const CODE_MAX_LENGTH = 64;

// Punctuation that belongs in addresses ("St.", "35,", "Fürst-Franz-Josef", "O'Brien", "19/2").
const ADDRESS_PUNCTUATION = new Set(['.', ',', '-', "'", '’', '/']);
// A word's characters: letters, digits and the marks the fold keeps (the vowel signs of Devanagari,
// Hangul is not split). The one rule for words: the database makes every other character of stored
// text a space before its parser reads it (lis_search_text, docs/development.md#text-folding).
const WORD = /[\p{L}\p{M}\p{N}]+/gu;
const WORD_CHAR = /[\p{L}\p{M}\p{N}]/u;

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

export function collapseWhitespace(query: string): string {
  return query.trim().replace(/\s+/gu, ' ');
}

// Text of words and address punctuation only, every punctuation mark right after a word (place names,
// most queries): none of the noise rules below can apply, so its words are simply the runs of
// letters and digits. Two linear scans, no backtracking.
const NOT_PLAIN = /[^\p{L}\p{M}\p{N}\s.,\-'’/]/u;
const LOOSE_PUNCTUATION = /(?:^|[\s.,\-'’/])[.,\-'’/]/u;

// Words of a query, folded. Noise is dropped: a query or a whitespace-separated chunk with more
// symbols than letters and digits ("' OR '1'='1", "%#$@*&l;der#$!", emoji, "<->"), and single
// letters glued to symbols other than address punctuation ("a&b", "!c"). Plain text takes a fast
// path with the same result: ranking places tokenizes every name and other name of up to 200 places
// per search, and the rules' per-character work was a large part of a prefix search (docs/benchmarks.md, figures behind the code).
export function tokenize(query: string): string[] {
  const folded = foldText(query);
  if (!NOT_PLAIN.test(folded) && !LOOSE_PUNCTUATION.test(folded))
    return (folded.match(WORD) ?? []).slice(0, MAX_TOKENS);
  return wordsWithoutNoise(folded);
}

/** The words of a text as tokenize splits it, before its noise rules: what the database indexes of stored text. */
export function splitWords(text: string): string[] {
  return foldText(text).match(WORD) ?? [];
}

// Whether tokenize drops any of the text's words as noise ("At&t": the `t` glued to `&`), so its
// words do not stand for all it says.
export function dropsNoise(text: string): boolean {
  return tokenize(text).length < Math.min(splitWords(text).length, MAX_TOKENS);
}

/** tokenize's rules applied to folded text (exported for the test that the fast path agrees with them). */
export function wordsWithoutNoise(folded: string): string[] {
  // A query that is mostly symbols ("' OR '1'='1") is noise as a whole.
  const visible = [...folded.replace(/\s+/gu, '')];
  const visibleWordChars = visible.filter((c) => WORD_CHAR.test(c)).length;
  if (visible.length - visibleWordChars > visibleWordChars) return [];
  const tokens: string[] = [];
  for (const chunk of folded.split(/\s+/u)) {
    const chars = [...chunk];
    const wordChars = chars.filter((c) => WORD_CHAR.test(c)).length;
    if (wordChars === 0 || chars.length - wordChars > wordChars) continue;
    for (const m of chunk.matchAll(WORD)) {
      const word = m[0];
      if ([...word].length === 1 && /\p{L}/u.test(word)) {
        const before = chunk[m.index - 1];
        const after = chunk[m.index + word.length];
        const glued = [before, after].some((c) => c !== undefined && !ADDRESS_PUNCTUATION.has(c));
        if (glued) continue;
      }
      tokens.push(word);
    }
  }
  return tokens.slice(0, MAX_TOKENS);
}

// A query that could be an identifier stored as an address: letters and digits in groups separated
// by - _ . / or spaces. Compared without separators and case, like the address_code column.
export function locationCodeOf(query: string): string | null {
  const q = query.trim();
  if (q.length === 0 || q.length > CODE_MAX_LENGTH) return null;
  if (!/^[A-Za-z0-9]+(?:[-_./ ]+[A-Za-z0-9]+)*$/.test(q)) return null;
  return q.replace(/[^A-Za-z0-9]/g, '').toLowerCase();
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
    .map((g, i) => anyOf(g.map((w, j) => (i === last && j === 0 ? `${quote(w)}:*` : quote(w)))))
    .join(' & ');
  const exact = groups.map((g) => anyOf(g.map(quote)));
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

// Every group as whole words, each any of its words ('a' & ('b' | 'c')).
export function tsqueryOfGroups(groups: ReadonlyArray<readonly string[]>): string {
  return groups.map((g) => anyOf(g.map(quote))).join(' & ');
}

// Every word of a text, whole, as a tsquery ("San Francisco" -> 'san' & 'francisco'); null without words.
export function allWordsTsquery(text: string): string | null {
  const words = tokenize(text);
  return words.length === 0 ? null : words.map(quote).join(' & ');
}

// Any of these words, whole ('st' | 'str'), as a tsquery.
export function anyWordTsquery(words: readonly string[]): string {
  return anyOf(words.map(quote));
}

// tsquery string literal: quotes doubled and backslashes escaped, so no word can become an operator.
function quote(word: string): string {
  return `'${word.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;
}

function anyOf(terms: string[]): string {
  return terms.length === 1 ? terms[0] : `(${terms.join(' | ')})`;
}

// What a search is, besides its page: every page of one search shares the id. `scope` holds the
// filters and any sort other than the default for the request; without them the id is the same as
// for a plain query.
export function resultIdFor(
  request: { query?: string | null; limit: number },
  scope: { filters?: Record<string, unknown>; sort?: string } = {},
): string {
  const key: Record<string, unknown> = {
    q: request.query == null ? null : collapseWhitespace(request.query).toLowerCase(),
    limit: request.limit,
  };
  if (scope.filters && Object.keys(scope.filters).length > 0) key.f = canonical(scope.filters);
  if (scope.sort) key.s = scope.sort;
  return uuidv5(JSON.stringify(key), RESULT_ID_NAMESPACE);
}

// Same value, same JSON: object keys sorted at every level.
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value as object)
        .sort()
        .map((k) => [k, canonical((value as Record<string, unknown>)[k])]),
    );
  }
  return value;
}
