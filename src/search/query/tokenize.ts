import { foldText } from '../text-fold/text-fold';

// The words of a query: folded (text-fold/), split where the database splits stored text, and noise
// dropped. What is made of them: text-query.ts (a TextQuery), tsquery.ts (the tsqueries).
const MAX_TOKENS = 32;

// Punctuation that belongs in addresses ("St.", "35,", "Fürst-Franz-Josef", "O'Brien", "19/2").
const ADDRESS_PUNCTUATION = new Set(['.', ',', '-', "'", '’', '/']);
// A word's characters: letters, digits and the marks the fold keeps (the vowel signs of Devanagari,
// Hangul is not split). The one rule for words: the database makes every other character of stored
// text a space before its parser reads it (lis_search_text, docs/development.md#text-folding).
const WORD = /[\p{L}\p{M}\p{N}]+/gu;
const WORD_CHAR = /[\p{L}\p{M}\p{N}]/u;

// Single letters each followed by a dot, two or more ("N.Y.", "U.S.A", "D.C."): initials, which
// spell a code. Not a letter of a longer word ("St. Gallen", "Ph.D").
const DOTTED_INITIALS = /(?<![\p{L}\p{M}\p{N}.])\p{L}(?:\.\p{L}(?![\p{L}\p{M}\p{N}]))+\.?/gu;

/** The text with dotted initials written as the code they spell ("Buffalo, N.Y." -> "Buffalo, NY"). */
export function joinDottedInitials(text: string): string {
  return text.replace(DOTTED_INITIALS, (m) => m.replace(/\./g, ''));
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
// per search, and the rules' per-character work was a large part of a prefix search
// (docs/benchmarks.md#fig-tokenize-fast-path).
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

/** Each whitespace-separated chunk folded as one word, or null when it is not exactly one ("hotel," is "hotel"). */
export function chunkWords(chunks: readonly string[]): Array<string | null> {
  return chunks.map((c) => {
    const t = tokenize(c);
    return t.length === 1 ? t[0] : null;
  });
}
