import { v5 as uuidv5 } from 'uuid';

// Fixed namespace so result ids are stable across instances and restarts.
const RESULT_ID_NAMESPACE = '6f3b9d52-2d7e-4a8c-9a51-1f0c5b7e2a10';
const MAX_TOKENS = 32;

// Letters that Unicode decomposition does not split but unaccent() maps (kept in step with the
// database so both sides of a full-text match agree).
const FOLD: Record<string, string> = {
  ß: 'ss', ẞ: 'ss', æ: 'ae', œ: 'oe', ø: 'o', đ: 'd', ð: 'd', ł: 'l', þ: 'th', ı: 'i', ħ: 'h', ŧ: 't',
};

export interface TextQuery {
  /** Whitespace-collapsed query; the database normalizes it the same way as addresses. */
  text: string;
  /** All words, the last one as a prefix: what the user may still be typing. */
  tsquery: string;
  /** All words as whole words: ranks exact house numbers above longer ones. */
  tsqueryExact: string;
}

export function collapseWhitespace(query: string): string {
  return query.trim().replace(/\s+/gu, ' ');
}

export function foldText(s: string): string {
  return s
    .toLowerCase()
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .replace(/[ßẞæœøđðłþıħŧ]/gu, (c) => FOLD[c] ?? c);
}

export function tokenize(query: string): string[] {
  return foldText(query)
    .split(/[^\p{L}\p{N}]+/u)
    .filter((t) => t.length > 0)
    .slice(0, MAX_TOKENS);
}

// Tokens hold only letters and digits, so quoting them cannot break tsquery syntax.
export function buildTextQuery(query: string): TextQuery | null {
  const tokens = tokenize(query);
  if (tokens.length === 0) return null;
  const quoted = tokens.map((t) => `'${t}'`);
  return {
    text: collapseWhitespace(query),
    tsquery: [...quoted.slice(0, -1), `${quoted[quoted.length - 1]}:*`].join(' & '),
    tsqueryExact: quoted.join(' & '),
  };
}

// Same normalized request -> same result_id on every page.
export function resultIdFor(request: { query: string; limit: number }): string {
  const key = JSON.stringify({ q: collapseWhitespace(request.query).toLowerCase(), limit: request.limit });
  return uuidv5(key, RESULT_ID_NAMESPACE);
}
