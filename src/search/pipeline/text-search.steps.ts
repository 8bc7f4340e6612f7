import { pinsOf } from '../place-matching/place-ranking';
import { surroundingsPlan } from '../place-matching/place-surroundings';
import type { PlaceMatcherService } from '../place-matching/place-matcher.service';
import type { RankedPlace } from '../place-matching/place-ranking';
import type { SearchRepository } from '../search.repository';
import { correctionsOf, correctQuery, unknownWords, wordsToCorrect } from '../typo-correction';
import {
  always,
  boundAsTyped,
  correctedWithoutPlaces,
  meansPlaces,
  namesPlaces,
  noCorrectedPlaces,
  unboundAsTyped,
  wordsCorrected,
} from './text-search.predicates';
import type { StepAnswer, TextSearchState } from './text-search-state';

export interface SearchSteps {
  repository: Pick<SearchRepository, 'vocabulary' | 'searchFullText' | 'searchArea' | 'searchFuzzy' | 'wordCandidates'>;
  placeMatcher: Pick<PlaceMatcherService, 'named' | 'misspelt'>;
}

export interface TextSearchStep {
  name: string;
  /** Whether the step runs, given what the steps before it found. */
  when: (s: TextSearchState) => boolean;
  /** Adds to the state, or answers: the first answer with matches ends the search. */
  run: (s: TextSearchState, deps: SearchSteps) => Promise<StepAnswer | void>;
  /** The last resort: its answer is the search's answer even when it found nothing. */
  final?: boolean;
}

// The whole text search, in order (Photon's order: strict first, lenient only when strict found
// nothing; Pelias's form: each strategy a named step under a named condition). The places a query
// names pin their imagery first (place-ranking.ts); ranking itself is the SQL's (sql/text-search.sql.ts).
export const TEXT_SEARCH_STEPS: readonly TextSearchStep[] = [
  { name: 'named-places', when: always, run: namedPlaces },
  { name: 'full-text', when: boundAsTyped, run: fullTextAsTyped },
  { name: 'around-named-place', when: namesPlaces, run: (s, d) => aroundPlace(s.places, s, d, []) },
  { name: 'word-corrections', when: always, run: wordCorrections },
  { name: 'corrected-places', when: wordsCorrected, run: correctedPlaces },
  { name: 'corrected-full-text', when: correctedWithoutPlaces, run: correctedFullText },
  { name: 'misspelt-places', when: always, run: misspeltPlaces },
  { name: 'meant-place-full-text', when: meansPlaces, run: meantPlaceFullText },
  { name: 'around-meant-place', when: meansPlaces, run: (s, d) => aroundPlace(s.meant, s, d, s.corrections) },
  { name: 'unbound-full-text', when: unboundAsTyped, run: unboundFullText },
  { name: 'similar-text', when: always, run: similarText, final: true },
];

// The places the query names as typed. The vocabulary is in memory but for its first read (and one a
// minute after, see SearchRepository.vocabulary).
async function namedPlaces(s: TextSearchState, { repository, placeMatcher }: SearchSteps): Promise<void> {
  s.vocabulary = await repository.vocabulary();
  s.places = await placeMatcher.named(s.text, s.region, s.vocabulary);
  s.bound = s.places.length > 0 || unknownWords(s.text, s.vocabulary).length === 0;
}

async function fullTextAsTyped(s: TextSearchState, { repository }: SearchSteps): Promise<StepAnswer> {
  const page = await repository.searchFullText(s.text, s.window, s.plan, pinsOf(s.places));
  return { page, match: 'text', searched: s.text, places: s.places, corrections: [] };
}

// A place the query names has no imagery of its own: the imagery nearest to it, within its
// surroundings (see place-surroundings.ts), under the request's other filters.
async function aroundPlace(
  places: RankedPlace[],
  s: TextSearchState,
  { repository }: SearchSteps,
  corrections: StepAnswer['corrections'],
): Promise<StepAnswer> {
  const page = await repository.searchArea(s.window, surroundingsPlan(s.plan, places[0]));
  return { page, match: 'nearby', places: [places[0]], corrections };
}

// The words the vocabulary does not hold; when it holds them all (they matched nothing together),
// every word: a typo can make another real word ("Boneville" for "Bonneville"), and without a
// correction the similar-places statement runs over every place name until its budget.
async function wordCorrections(s: TextSearchState, { repository }: SearchSteps): Promise<void> {
  const correctable = wordsToCorrect(s.text);
  const unknown = correctable.filter((w) => s.vocabulary?.docsOf(w) === undefined);
  const candidates = await (unknown.length > 0
    ? repository.wordCandidates(unknown)
    : repository.wordCandidates(correctable, true));
  s.corrected = correctQuery(s.text, candidates);
  s.corrections = s.corrected ? correctionsOf(s.text, s.corrected) : [];
}

// Places the corrected words name are the surer guess than the addresses holding them.
async function correctedPlaces(s: TextSearchState, { placeMatcher }: SearchSteps): Promise<void> {
  s.correctedPlaces = await placeMatcher.named(s.corrected!, s.region, s.vocabulary!);
}

async function correctedFullText(s: TextSearchState, { repository }: SearchSteps): Promise<StepAnswer> {
  const page = await repository.searchFullText(s.corrected!, s.window, s.plan);
  return { page, match: 'corrected', searched: s.corrected!, places: [], corrections: s.corrections };
}

// The names most like the query, asked for only when the corrected words name no place: trigram
// similarity over every place name is the costliest statement of a typo.
async function misspeltPlaces(s: TextSearchState, { placeMatcher }: SearchSteps): Promise<void> {
  s.meant = noCorrectedPlaces(s) ? await placeMatcher.misspelt(s.text, s.region) : s.correctedPlaces;
}

async function meantPlaceFullText(s: TextSearchState, { repository }: SearchSteps): Promise<StepAnswer> {
  const searched = s.corrected ?? s.text;
  const page = await repository.searchFullText(searched, s.window, s.plan, pinsOf(s.meant));
  return { page, match: 'corrected', searched, places: s.meant, corrections: s.corrections };
}

// Skipped before: the text may still match what the vocabulary in memory cannot know (a location
// code, a word imported since it was read).
async function unboundFullText(s: TextSearchState, { repository }: SearchSteps): Promise<StepAnswer> {
  const page = await repository.searchFullText(s.text, s.window, s.plan);
  return { page, match: 'text', searched: s.text, places: s.places, corrections: [] };
}

async function similarText(s: TextSearchState, { repository }: SearchSteps): Promise<StepAnswer> {
  const page = await repository.searchFuzzy(s.text, s.window, s.plan);
  return { page, match: 'fallback', searched: s.text, places: [], corrections: [] };
}
