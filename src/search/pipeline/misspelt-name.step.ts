import { pinsOf } from '../place-matching/place-ranking';
import { TextQuery, textQueryFromGroups } from '../query/text-query';
import { tokenize } from '../query/tokenize';
import { equivalentWords } from '../vocabulary/abbreviations';
import { correctionsToName, TO_CORRECT, unknownWords } from '../vocabulary/typo-correction';
import { placesNamed } from './place-name';
import type { SearchSteps } from './text-search.steps';
import type { StepAnswer, TextSearchState, WordCorrection } from './text-search-state';

// A place's other names hold the misspellings people often type ("Londn" of London, "Sydny" of
// Sydney): such a word names the place, but no address holds it, so the search as typed finds only
// the place's own records. A word no address holds that is a typo of a word of the best place's own
// name is that word: the search is the right spelling's, and says what was corrected.

/** The corrections from the words no address holds to the best named place's own name. */
export function correctionsToNamedPlace(s: TextSearchState): WordCorrection[] {
  const [best] = s.places;
  if (!best) return [];
  const unknown = new Set(unknownWords(s.text, s.vocabulary, TO_CORRECT));
  if (unknown.size === 0) return [];
  return correctionsToName(s.text, tokenize(best.name)).filter((c) => unknown.has(c.from));
}

export const namedThroughMisspelling = (s: TextSearchState): boolean => correctionsToNamedPlace(s).length > 0;

/** The query with each corrected word replaced by the word it was taken for (and that word's spellings). */
export function withCorrections(text: TextQuery, corrections: readonly WordCorrection[]): TextQuery {
  const to = new Map(corrections.map((c) => [c.from, c.to]));
  const groups = text.groups.map((g) => (to.has(g[0]) ? [to.get(g[0])!, ...equivalentWords(to.get(g[0])!)] : g));
  return textQueryFromGroups(groups, groups.map((g) => g[0]).join(' '), text.code);
}

// The right spelling's search: the places it names pinned, the addresses holding its words.
export async function misspeltNameFullText(s: TextSearchState, deps: SearchSteps): Promise<StepAnswer> {
  const corrections = correctionsToNamedPlace(s);
  const corrected = withCorrections(s.text, corrections);
  const places = await placesNamed(corrected, s.region, s, deps);
  const page = await deps.repository.searchFullText(corrected, s.window, s.plan, pinsOf(places));
  return { page, match: 'corrected', searched: corrected, places, corrections };
}
