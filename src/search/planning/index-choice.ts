import { RANKED_LIST_SIZE } from '../../search-index/search-index-limits';
import { SCORE_CAP } from '../paging/search-limits';
import { TextQuery } from '../query/text-query';
import { tsqueryOfGroups } from '../query/tsquery';
import { inVocabularyShape, Vocabulary } from '../vocabulary/vocabulary-lookup';

/** Rank the head of a search from the ranked lists of these words (see rankedListPageSql). */
export interface RankedListChoice {
  words: string[];
  /** Matches, estimated from the vocabulary's counts: never counted. */
  estimate: number;
  /** Several words: the lists' records must be checked for the others. */
  checked: boolean;
  /**
   * Matches known to exist: the records of the commonest listed word (the vocabulary counts each
   * word's records exactly, and each of them matches); 0 for several words.
   */
  floor: number;
}

/** How to send a text query: decided per query from the vocabulary's word counts. */
export interface TextQueryShape {
  /** Look up all words but the last in the index and filter by the last (a prefix) afterwards. */
  splitPrefix: boolean;
  /** Far more matches than the count cap: do not count them. */
  broad: boolean;
  /** Many matches, and a word of the query whose commonest spellings or completions have ranked lists; else null. */
  lists: RankedListChoice | null;
  /**
   * Matches estimated from the vocabulary's counts (as if the words were independent), or null when
   * a word is one the vocabulary does not count (a number, a one-letter word that is not a prefix).
   */
  estimate: number | null;
  /**
   * The query's tsquery with the last word's completions spelled out as whole words, when the
   * vocabulary holds them all and they are few (see completedGroup); else absent: the prefix.
   */
  completed?: string;
  /** Only these words are looked up in the index, and the whole query filters (see indexedTsquery). */
  indexed?: string;
}

export const PLAIN_SHAPE: TextQueryShape = { splitPrefix: false, broad: false, lists: null, estimate: null };

// Lists read for one query at most: the commonest completions' (a 3-letter prefix may have dozens).
const MAX_LISTS = 16;
// Records of the lists expected to match every word of a query of several words, at least.
const MIN_LISTED_HEAD = 200;
// A group's listed words hold at least 1 / MIN_LISTED_SHARE of its addresses (the rest are rarer
// words, found after the head).
const MIN_LISTED_SHARE = 3;

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
  /**
   * Complete, or the last group's prefix is letters only: its completions are then every word it
   * reaches but itself when shorter than the vocabulary's words ("m"), enough for an estimate.
   */
  estimable: boolean;
  /** Every word of the group has one or two letters ("el", "la", "de"): see indexedTsquery. */
  short: boolean;
}

// A group matches any of its words; the last group's first word is a prefix, which matches every
// word it starts. Words the vocabulary does not hold count 0: rarer than any it holds.
function groupCounts(group: string[], isLast: boolean, vocabulary: Vocabulary): GroupCounts {
  let upper = 0;
  let lower = 0;
  let complete = true;
  let estimable = true;
  const short = group.every((word) => [...word].length <= 2);
  group.forEach((word, j) => {
    const prefix = isLast && j === 0;
    const c = prefix
      ? vocabulary.completions(word)
      : { sum: vocabulary.docsOf(word) ?? 0, max: vocabulary.docsOf(word) ?? 0 };
    upper += c.sum;
    lower = Math.max(lower, c.max);
    if (!inVocabularyShape(word)) complete = false;
    if (!inVocabularyShape(word) && !(prefix && /^\p{L}+$/u.test(word))) estimable = false;
  });
  return { upper, lower, complete, estimable, short };
}

// Split when the last word, as a prefix, is in SPLIT_PREFIX_RATIO times the addresses of the rarest
// other word: the index then narrows on that rarer word instead of listing every address the prefix
// reaches. Below that, GIN's AND of the posting lists is cheaper than reading and rechecking every
// record of the rarer word (docs/benchmarks.md#fig-split-prefix).
const SPLIT_PREFIX_RATIO = 5;

// Only words the vocabulary counts narrow the lookup knowingly: a number or a one-letter word ("12",
// "n") counts 0 but may be in thousands of addresses: a split on it would read them all to find the
// few that hold the other words.
function splitsPrefix(counts: GroupCounts[]): boolean {
  const last = counts[counts.length - 1];
  const known = counts.slice(0, -1).filter((c) => c.complete);
  return known.length > 0 && last.upper > SPLIT_PREFIX_RATIO * Math.min(...known.map((c) => c.upper));
}

// A last word spelt out as whole words (see completedGroup) is no prefix GIN must list: its AND
// with the other words skips through their posting lists, while a split reads and rechecks every
// record of those words. So the split is kept only when they match few records (by the known words,
// as if independent; docs/benchmarks.md#fig-split-completed).
const SPLIT_COMPLETED_MAX = 2_000;

const leadingMatches = (counts: GroupCounts[], vocabulary: Vocabulary): number =>
  independentEstimate(
    counts.slice(0, -1).filter((c) => c.complete),
    vocabulary,
  );

const groupsCounts = (query: TextQuery, vocabulary: Vocabulary) =>
  query.groups.map((g, i) => groupCounts(g, i === query.groups.length - 1, vocabulary));

/**
 * Whether the index should look up all words but the last (a prefix) and the whole query filter:
 * the split rule of shapeTextQuery alone. The gazetteer's words are counted by the catalogue's
 * vocabulary: its addresses and the places' names share their streets and towns.
 */
export const shouldSplitPrefix = (query: TextQuery, vocabulary: Vocabulary): boolean =>
  splitsPrefix(groupsCounts(query, vocabulary));

// Broad: one word whose commonest completion alone is in more addresses than the cap (with a
// margin), or several words, all known, whose estimated matches are far above the cap.
export function shapeTextQuery(
  query: TextQuery,
  vocabulary: Vocabulary,
  countCap: number,
  /** The words of the name of the place the query names, if any: they go together (see matchEstimate). */
  placeWords: readonly string[] = [],
): TextQueryShape {
  const counts = groupsCounts(query, vocabulary);
  const last = counts[counts.length - 1];
  const lastWords = completedGroup(query, vocabulary);
  const completed = lastWords && tsqueryOfGroups([...query.groups.slice(0, -1), lastWords]);
  const indexed = counts.length > 1 ? indexedTsquery(query, counts, vocabulary, lastWords) : null;
  const splitPrefix =
    splitsPrefix(counts) && (completed === null || leadingMatches(counts, vocabulary) <= SPLIT_COMPLETED_MAX);
  let broad: boolean;
  if (counts.length === 1) {
    broad = last.lower >= SINGLE_WORD_MARGIN * (countCap + 1);
  } else {
    broad =
      counts.every((c) => c.complete) &&
      independentEstimate(counts, vocabulary) >= SEVERAL_WORDS_MARGIN * (countCap + 1);
  }
  // Under one match expected, the words are rare (or new since the vocabulary was read): none.
  const expected = counts.every((c) => c.estimable)
    ? Math.round(matchEstimate(query, counts, vocabulary, placeWords))
    : 0;
  const estimate = expected >= 1 ? expected : null;
  return {
    splitPrefix,
    broad,
    lists: rankedListChoice(query, counts, vocabulary),
    estimate,
    ...(completed === null ? {} : { completed }),
    ...(indexed === null ? {} : { indexed }),
  };
}

// A last word spelt out as at most this many whole words.
const MAX_COMPLETIONS = 16;

// The last word as its completions, whole words, instead of a prefix: GIN reads every word a prefix
// starts into one bitmap before it can intersect it with the other words (and past work_mem that
// bitmap turns lossy, so the heap is read page by page), while whole words it skips through
// (docs/benchmarks.md#fig-completed-group). Only a prefix of letters the vocabulary can list
// completely (its words are every letters-only word of 2-64 characters, see lis_vocabulary_word): a
// word that mixes letters and digits ("route66") is then found by its whole word only, and a word
// first imported since the vocabulary was read (at most a minute ago, see SearchRepository.vocabulary)
// by the prefix of a later read. A prefix no word in the vocabulary starts stays a prefix. The last
// group so, or null.
function completedGroup(query: TextQuery, vocabulary: Vocabulary): string[] | null {
  const [prefix, ...spellings] = query.groups[query.groups.length - 1];
  if (!/^\p{L}{2,64}$/u.test(prefix)) return null;
  const words = vocabulary.completionWords(prefix, MAX_COMPLETIONS);
  if (words === null || words.length === 0) return null;
  return [...words, ...spellings.filter((w) => !words.includes(w))];
}

// The rarest words the index needs, when they are fewer than all: the whole query filters what they
// find. Counted words only (a prefix once spelt out), rarest first, until their matches (as if
// independent) are SPLIT_COMPLETED_MAX at most; GIN's AND walks every posting list it is given, and
// a common one costs more than rechecking the few records the rare ones find
// (docs/benchmarks.md#fig-rarest-words).
// Two-letter words are not taken: they are parts of names far more often than independent words
// ("el" of El Paso, "la", "de"), so the estimate is far too low.
function indexedTsquery(
  query: TextQuery,
  counts: GroupCounts[],
  vocabulary: Vocabulary,
  completed: string[] | null,
): string | null {
  const rows = Math.max(vocabulary.rows, 1);
  const last = counts.length - 1;
  const rarest = counts
    .map((c, i) => ({ c, i }))
    .filter(({ c, i }) => c.complete && !c.short && (i < last || completed !== null))
    .sort((a, b) => a.c.upper - b.c.upper || a.i - b.i);
  const taken: number[] = [];
  let matches = rows;
  for (const { c, i } of rarest) {
    if (matches <= SPLIT_COMPLETED_MAX) break;
    taken.push(i);
    matches *= Math.min(c.upper / rows, 1);
  }
  // None taken: a catalogue that small needs no narrowing.
  if (matches > SPLIT_COMPLETED_MAX || taken.length === 0 || taken.length === counts.length) return null;
  return tsqueryOfGroups(taken.sort((a, b) => a - b).map((i) => (i === last ? completed! : query.groups[i])));
}

// Matches of several groups. The groups that name the place the query names go together in its
// addresses ("el" and "paso" in El Paso's): as if independent, `El Paso`'s estimate was a small
// fraction of its matches, and a page its records fill reported that total
// (docs/benchmarks.md#fig-two-letter-words). They count as the
// rarest of them (nearly every address holding it holds the others); the rest as independent.
function matchEstimate(
  query: TextQuery,
  counts: GroupCounts[],
  vocabulary: Vocabulary,
  placeWords: readonly string[],
): number {
  const last = counts.length - 1;
  const named = counts.map((_, i) =>
    query.groups[i].some(
      (word, j) => placeWords.includes(word) || (i === last && j === 0 && placeWords.some((w) => w.startsWith(word))),
    ),
  );
  if (named.filter(Boolean).length < 2) return independentEstimate(counts, vocabulary);
  const rarest = counts.filter((_, i) => named[i]).reduce((a, b) => (b.upper < a.upper ? b : a));
  return independentEstimate([...counts.filter((_, i) => !named[i]), rarest], vocabulary);
}

// Matches of several groups, as if their words were independent (they often are not: "united" and
// "states" go together, "san" and "jose" too).
function independentEstimate(counts: GroupCounts[], vocabulary: Vocabulary): number {
  const rows = Math.max(vocabulary.rows, 1);
  return counts.reduce((n, c) => n * Math.min(c.upper / rows, 1), rows);
}

// The head of a query with many matches comes from ranked lists (see rankedListPageSql): a one-word
// query from its prefix's own list when it has one (short prefixes over many words), else when one of
// its groups (a word with its spellings; the last one a prefix) has lists holding at least a third
// of that group's addresses: the group with the fewest addresses, its MAX_LISTS commonest listed
// words. One group: when it is in more than SCORE_CAP addresses. Several (all known to the
// vocabulary): when their estimated matches (as if independent) are that many and at least
// MIN_LISTED_HEAD of the lists' records are expected to hold the other words too (those are
// checked). Records that are in no list still match, after the head (they are not ranked).
function rankedListChoice(query: TextQuery, counts: GroupCounts[], vocabulary: Vocabulary): RankedListChoice | null {
  const several = counts.length > 1;
  if (several && !counts.every((c) => c.complete)) return null;
  const estimate = several ? independentEstimate(counts, vocabulary) : counts[0].upper;
  if (estimate <= SCORE_CAP) return null;
  // A prefix with a list of its own: exactly the head a search for it ranks.
  const typed = query.groups[0][0];
  if (!several && vocabulary.hasPrefixList(typed) && vocabulary.completions(typed).sum * MIN_LISTED_SHARE >= estimate)
    return {
      words: [`${typed}*`],
      estimate: Math.round(estimate),
      checked: false,
      floor: vocabulary.completions(typed).max,
    };
  let best: { words: Map<string, number>; upper: number } | null = null;
  query.groups.forEach((group, i) => {
    const isLast = i === query.groups.length - 1;
    const [first, ...spellings] = group;
    const listed = new Map(isLast ? vocabulary.listedCompletions(first).map((w) => [w.word, w.docs]) : []);
    for (const w of isLast ? spellings : group) if (vocabulary.isListed(w)) listed.set(w, vocabulary.docsOf(w) ?? 0);
    const covered = [...listed.values()].reduce((n, d) => n + d, 0);
    const { upper } = counts[i];
    if (listed.size > 0 && covered * MIN_LISTED_SHARE >= upper && (best === null || upper < best.upper))
      best = { words: listed, upper };
  });
  if (best === null) return null;
  const { words, upper } = best as { words: Map<string, number>; upper: number };
  if (several && (RANKED_LIST_SIZE * estimate) / upper < MIN_LISTED_HEAD) return null;
  const commonest = [...words].sort(([a, x], [b, y]) => y - x || (a < b ? -1 : 1)).map(([w]) => w);
  const floor = several ? 0 : words.get(commonest[0])!;
  return { words: commonest.slice(0, MAX_LISTS), estimate: Math.round(estimate), checked: several, floor };
}
