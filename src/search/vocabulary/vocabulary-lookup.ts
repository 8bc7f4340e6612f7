/** A word, the addresses holding it, and whether it has a ranked list (see RANKED_LIST_MIN_DOCS). */
export type VocabularyEntry = readonly [word: string, docs: number, listed?: boolean];

// The catalogue's vocabulary in memory, for lookups only: every word the imagery_words table holds
// (letters only, or an ordinal such as 35th; 2-64 characters: vocabulary-word.ts) with the number of
// addresses holding it and whether it has a ranked list, sorted so a prefix is a range. Read from
// the database at most once a minute (SearchRepository.vocabulary); the database keeps the counts
// (lis_count_words, the imagery triggers' one upkeep, in src/database/functions/).
export class Vocabulary {
  private readonly words: string[];
  private readonly docs: number[];
  private readonly listed: boolean[];
  private readonly index: Map<string, number>;

  private readonly prefixLists: ReadonlySet<string>;

  /** `rows`: records in the catalogue (an estimate is enough); `listedPrefixes`: prefixes with a ranked list. */
  constructor(
    entries: ReadonlyArray<VocabularyEntry>,
    readonly rows: number,
    listedPrefixes: Iterable<string> = [],
  ) {
    this.prefixLists = new Set(listedPrefixes);
    const sorted = [...entries].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    this.words = sorted.map(([w]) => w);
    this.docs = sorted.map(([, d]) => d);
    this.listed = sorted.map(([, , l]) => l === true);
    this.index = new Map(this.words.map((w, i) => [w, i]));
  }

  /** Whether the prefix has a ranked list of its own (see the ranked_word_lists migration). */
  hasPrefixList(prefix: string): boolean {
    return this.prefixLists.has(prefix);
  }

  /** Whether the word has a ranked list. */
  isListed(word: string): boolean {
    const i = this.index.get(word);
    return i !== undefined && this.listed[i];
  }

  get size(): number {
    return this.words.length;
  }

  /** Addresses holding the word; undefined when the vocabulary does not hold it. */
  docsOf(word: string): number | undefined {
    const i = this.index.get(word);
    return i === undefined ? undefined : this.docs[i];
  }

  /** Over the words starting with `prefix`: how many, the sum of their counts and the largest one. */
  completions(prefix: string): { words: number; sum: number; max: number } {
    let sum = 0;
    let max = 0;
    const range = this.range(prefix);
    for (let i = range.from; i < range.to; i++) {
      sum += this.docs[i];
      if (this.docs[i] > max) max = this.docs[i];
    }
    return { words: range.to - range.from, sum, max };
  }

  /** The words starting with `prefix`, or null when there are more than `max`. */
  completionWords(prefix: string, max: number): string[] | null {
    const range = this.range(prefix);
    return range.to - range.from > max ? null : this.words.slice(range.from, range.to);
  }

  /** The words starting with `prefix` that have a ranked list, with their counts. */
  listedCompletions(prefix: string): Array<{ word: string; docs: number }> {
    const range = this.range(prefix);
    const out: Array<{ word: string; docs: number }> = [];
    for (let i = range.from; i < range.to; i++)
      if (this.listed[i]) out.push({ word: this.words[i], docs: this.docs[i] });
    return out;
  }

  // The words starting with `prefix`: indexes from..to-1 (a binary search, then a walk).
  private range(prefix: string): { from: number; to: number } {
    let lo = 0;
    let hi = this.words.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.words[mid] < prefix) lo = mid + 1;
      else hi = mid;
    }
    let to = lo;
    while (to < this.words.length && this.words[to].startsWith(prefix)) to++;
    return { from: lo, to };
  }
}

// "35th", "1st", "22nd": the only words with digits the vocabulary holds (lis_vocabulary_word in the
// ordinals_in_vocabulary and two_letter_words migrations); house numbers and postcodes stay out.
// The shape of a word the vocabulary holds (the triggers' rule) lives in vocabulary-word.ts.
export { inVocabularyShape } from './vocabulary-word';

export const EMPTY_VOCABULARY = new Vocabulary([], 0);
