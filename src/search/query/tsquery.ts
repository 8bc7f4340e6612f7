import { tokenize } from './tokenize';

// Words as PostgreSQL tsqueries (the 'simple' configuration, as the address index is built).
// Every group as whole words, each any of its words ('a' & ('b' | 'c')).
export function tsqueryOfGroups(groups: ReadonlyArray<readonly string[]>): string {
  return groups.map((g) => anyOf(g.map(tsqueryLiteral))).join(' & ');
}

// Every word of a text, whole, as a tsquery ("San Francisco" -> 'san' & 'francisco'); null without words.
export function allWordsTsquery(text: string): string | null {
  const words = tokenize(text);
  return words.length === 0 ? null : words.map(tsqueryLiteral).join(' & ');
}

// Any of these words, whole ('st' | 'str'), as a tsquery.
export function anyWordTsquery(words: readonly string[]): string {
  return anyOf(words.map(tsqueryLiteral));
}

// tsquery string literal: quotes doubled and backslashes escaped, so no word can become an operator.
export function tsqueryLiteral(word: string): string {
  return `'${word.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;
}

// Any of the terms: one alone, or several in parentheses joined by |.
export function anyOf(terms: string[]): string {
  return terms.length === 1 ? terms[0] : `(${terms.join(' | ')})`;
}
