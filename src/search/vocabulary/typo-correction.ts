import { equivalentWords } from './abbreviations';
import { TextQuery, textQueryFromGroups } from '../query/text-query';
import { inVocabularyShape, Vocabulary } from './vocabulary-lookup';

// How many spellings of one word a corrected query may try besides the word itself.
const MAX_CORRECTIONS_PER_WORD = 4;

// Typos tolerated per word, by length (as Elasticsearch's AUTO fuzziness): none below 3 letters,
// one up to 5, two from 6. Words with digits (house numbers, postcodes) must match exactly.
export function allowedTypos(word: string): number {
  if (/\p{N}/u.test(word)) return 0;
  return allowanceFor([...word].length);
}

function allowanceFor(length: number): number {
  if (length < 3) return 0;
  return length <= 5 ? 1 : 2;
}

// Words worth looking up in the vocabulary.
export function wordsToCorrect(query: TextQuery): string[] {
  return [...new Set(query.words.filter((w) => allowedTypos(w) > 0))];
}

/** Which words unknownWords asks about, and how it reads them. */
export interface UnknownWordsRule {
  /** A word counts only when this holds for it. */
  among: (word: string) => boolean;
  /** A group is known by any of its spellings (its abbreviations and other forms); else by the word as typed. */
  bySpellings: boolean;
  /** The last word as typed may be half typed: it is known when the vocabulary holds a word it starts. */
  lastAsPrefix: boolean;
}

/**
 * Words no address holds: groups of which the vocabulary knows no spelling, of words it would hold
 * (see inVocabularyShape). One of them makes a full-text search find nothing but location codes.
 * Two-letter words are left out: the vocabulary counts them, but one no address holds is a code more
 * often than a typo ("li" of `li 9490-35`, a code matched whole; none is corrected, see
 * allowedTypos), so it is no sign of a search bound to find nothing.
 */
export const HELD_BY_NO_ADDRESS: UnknownWordsRule = {
  among: (w) => inVocabularyShape(w) && [...w].length > 2,
  bySpellings: true,
  lastAsPrefix: true,
};

/** Words as typed that may hold a typo (allowedTypos) and that no address holds: misspellings. */
export const MISSPELT: UnknownWordsRule = { among: (w) => allowedTypos(w) > 0, bySpellings: false, lastAsPrefix: true };

/** The same, the last word whole: the words the vocabulary's nearest words are asked for. */
export const TO_CORRECT: UnknownWordsRule = { ...MISSPELT, lastAsPrefix: false };

/**
 * The one rule for a word the vocabulary lacks: it holds no such word, or, for the last word read as
 * a prefix, no word that starts with it. The words of the query so (each group's word as typed, in
 * query order), of those `rule` asks about.
 */
export function unknownWords(query: TextQuery, vocabulary: Vocabulary, rule = HELD_BY_NO_ADDRESS): string[] {
  const last = query.groups.length - 1;
  const lacks = (w: string, prefix: boolean) =>
    prefix ? vocabulary.completions(w).words === 0 : vocabulary.docsOf(w) === undefined;
  return query.groups
    .filter((group, i) =>
      (rule.bySpellings ? group : group.slice(0, 1)).every(
        (w, j) => rule.among(w) && lacks(w, rule.lastAsPrefix && i === last && j === 0),
      ),
    )
    .map((group) => group[0]);
}

// The allowance follows the longer of the typed and the vocabulary word: a dropped "ß" ("Strae"
// for "Strasse") is one typo to the person typing but two letters after folding. A word still being
// typed is measured by what has been typed.
function allowedBetween(typed: string, word: string, prefix: boolean): number {
  if (allowedTypos(typed) === 0) return 0;
  return prefix ? allowedTypos(typed) : allowanceFor(Math.max([...typed].length, [...word].length));
}

// Optimal string alignment distance: insertions, deletions, substitutions and swaps of neighbours
// each count one. With `prefix`, the distance from `typed` to the closest prefix of `word`, for the
// last query word that may still be half typed. Hand-written because no maintained package offers
// the prefix form; word lengths are bounded (64), so the O(n*m) table is small.
export function editDistance(typed: string, word: string, prefix = false): number {
  const a = [...typed];
  const b = [...word];
  const rows: number[][] = [Array.from({ length: b.length + 1 }, (_, j) => j)];
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(rows[i - 1][j] + 1, row[j - 1] + 1, rows[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, rows[i - 2][j - 2] + 1);
      row.push(d);
    }
    rows.push(row);
  }
  const last = rows[a.length];
  return prefix ? Math.min(...last) : last[b.length];
}

// The query with each misspelt word widened to the vocabulary words within its typo allowance
// (closest first; of two as close to what was typed, the one closer whole). `candidates` holds, per word, vocabulary words nearest by trigram similarity.
// Returns null when nothing could be corrected.
export function correctQuery(query: TextQuery, candidates: ReadonlyMap<string, readonly string[]>): TextQuery | null {
  const lastIndex = query.groups.length - 1;
  let changed = false;
  const best: string[] = [];
  const groups = query.groups.map((group, i) => {
    const typed = group[0];
    const prefix = i === lastIndex;
    const scored = (candidates.get(typed) ?? [])
      .map((word, rank) => ({
        word,
        rank,
        distance: editDistance(typed, word, prefix),
        whole: editDistance(typed, word),
      }))
      .filter((c) => c.distance <= allowedBetween(typed, c.word, prefix))
      .sort((x, y) => x.distance - y.distance || x.whole - y.whole || x.rank - y.rank)
      .slice(0, MAX_CORRECTIONS_PER_WORD);
    best.push(scored[0]?.word ?? typed);
    const widened = [...group];
    for (const { word } of scored) {
      for (const w of [word, ...equivalentWords(word)]) {
        if (!widened.includes(w)) {
          widened.push(w);
          changed = true;
        }
      }
    }
    return widened;
  });
  return changed ? textQueryFromGroups(groups, best.join(' '), query.code) : null;
}

// The words a correction changed, in query order: the typed word and the vocabulary word taken for it.
export function correctionsOf(typed: TextQuery, corrected: TextQuery): Array<{ from: string; to: string }> {
  const best = corrected.text.split(' ');
  return typed.groups.flatMap((group, i) =>
    best[i] !== undefined && best[i] !== group[0] ? [{ from: group[0], to: best[i] }] : [],
  );
}

// Vocabulary words one swap of neighbouring letters away ("yrok" for "york"): the trigram lookup of
// wordCandidates misses them in short words, where a swap leaves no trigram in common.
export function knownTranspositions(word: string, vocabulary: Vocabulary): string[] {
  const letters = [...word];
  const out: string[] = [];
  for (let i = 0; i + 1 < letters.length; i++) {
    if (letters[i] === letters[i + 1]) continue;
    const swapped = [...letters];
    [swapped[i], swapped[i + 1]] = [swapped[i + 1], swapped[i]];
    const candidate = swapped.join('');
    if (vocabulary.docsOf(candidate) !== undefined && !out.includes(candidate)) out.push(candidate);
  }
  return out;
}

// The trigram candidates of each word with its known transpositions first.
export function withTranspositions(
  candidates: ReadonlyMap<string, readonly string[]>,
  words: readonly string[],
  vocabulary: Vocabulary,
): Map<string, string[]> {
  const out = new Map<string, string[]>([...candidates].map(([w, list]) => [w, [...list]]));
  for (const w of words) {
    const swaps = knownTranspositions(w, vocabulary);
    if (swaps.length > 0) out.set(w, [...swaps, ...(out.get(w) ?? []).filter((c) => !swaps.includes(c))]);
  }
  return out;
}

/**
 * The words of a query a similar name was taken for ("pariss" for "Paris"): each typed word the
 * name does not hold, paired with the name's closest word within the word's typo allowance.
 */
export function correctionsToName(typed: TextQuery, nameWords: readonly string[]): Array<{ from: string; to: string }> {
  return typed.groups.flatMap((group) => {
    if (group.some((w) => nameWords.includes(w))) return [];
    const word = group[0];
    const near = nameWords
      .map((to) => ({ to, d: editDistance(word, to) }))
      .filter(({ d }) => d > 0 && d <= allowedTypos(word))
      .sort((a, b) => a.d - b.d);
    return near.length > 0 ? [{ from: word, to: near[0].to }] : [];
  });
}
