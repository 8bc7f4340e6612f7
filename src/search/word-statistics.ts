import { TextQuery } from './search-query';
import { inVocabularyShape, Vocabulary } from './vocabulary';

/** How to send a text query: decided per query from the vocabulary's word counts. */
export interface TextQueryShape {
  /** Look up all words but the last in the index and filter by the last (a prefix) afterwards. */
  splitPrefix: boolean;
  /** Far more matches than the count cap: do not count them. */
  broad: boolean;
}

export const PLAIN_SHAPE: TextQueryShape = { splitPrefix: false, broad: false };

// A single word the vocabulary shows in this many times the cap is not counted: the counts are
// exact as the triggers keep them, the margin covers deletions since the vocabulary was read.
const SINGLE_WORD_MARGIN = 1.1;
// Several words: their matches are estimated as if the words were independent, which they are not
// ("united" and "states" go together), so the margin is wider.
const SEVERAL_WORDS_MARGIN = 3;

interface GroupCounts {
  /** At most this many addresses hold a word of the group (the sum). */
  upper: number;
  /** At least this many do (the commonest word). */
  lower: number;
  /** Every word of the group has the vocabulary's shape, so the counts are complete. */
  complete: boolean;
}

// A group matches any of its words; the last group's first word is a prefix, which matches every
// word it starts. Words the vocabulary does not hold count 0: rarer than any it holds.
function groupCounts(group: string[], isLast: boolean, vocabulary: Vocabulary): GroupCounts {
  let upper = 0;
  let lower = 0;
  let complete = true;
  group.forEach((word, j) => {
    const c =
      isLast && j === 0
        ? vocabulary.completions(word)
        : { sum: vocabulary.docsOf(word) ?? 0, max: vocabulary.docsOf(word) ?? 0 };
    upper += c.sum;
    lower = Math.max(lower, c.max);
    if (!inVocabularyShape(word)) complete = false;
  });
  return { upper, lower, complete };
}

// Split when the last word, as a prefix, is commoner than the rarest other word: the index then
// narrows on that rarer word instead of listing every address the prefix reaches. Broad: one word
// whose commonest completion alone is in more addresses than the cap (with a margin), or several
// words, all known, whose estimated matches are far above the cap.
export function shapeTextQuery(query: TextQuery, vocabulary: Vocabulary, countCap: number): TextQueryShape {
  const counts = query.groups.map((g, i) => groupCounts(g, i === query.groups.length - 1, vocabulary));
  const last = counts[counts.length - 1];
  const others = counts.slice(0, -1);
  const splitPrefix = others.length > 0 && last.upper > Math.min(...others.map((c) => c.upper));
  let broad: boolean;
  if (counts.length === 1) {
    broad = last.lower >= SINGLE_WORD_MARGIN * (countCap + 1);
  } else {
    const rows = Math.max(vocabulary.rows, 1);
    const estimate = counts.reduce((n, c) => n * Math.min(c.upper / rows, 1), rows);
    broad = counts.every((c) => c.complete) && estimate >= SEVERAL_WORDS_MARGIN * (countCap + 1);
  }
  return { splitPrefix, broad };
}
