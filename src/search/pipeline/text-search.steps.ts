import { pinsOf } from '../place-matching/place-ranking';
import { surroundingsPlan } from '../place-matching/place-surroundings';
import type { PlaceMatcherService } from '../place-matching/place-matcher.service';
import type { RankedPlace } from '../place-matching/place-ranking';
import type { SearchRepository } from '../search.repository';
import { boundRegion, namedRegionOf } from '../query-qualifiers';
import { buildTextQuery, tokenize } from '../search-query';
import { correctionsOf, correctQuery, unknownWords, withTranspositions, wordsToCorrect } from '../typo-correction';
import { addressResemblesQuery, placeResemblesQuery } from './query-believability';
import {
  always,
  bestPlaceIsTheQuery,
  boundAsTyped,
  correctedWithoutPlaces,
  meansPlaces,
  meantPlaceIsBelievable,
  namesRegionElsewhere,
  noCorrectedPlaces,
  unboundAsTyped,
  someWordMisspelt,
  namesRegion,
  namesCategory,
  wordsCorrected,
} from './text-search.predicates';
import { namedCategory } from './named-category.step';
import { isPlaceName, placesNamed } from './place-name';
import { EMPTY_PAGE, StepAnswer, TextSearchState } from './text-search-state';

export interface SearchSteps {
  repository: Pick<SearchRepository, 'vocabulary' | 'searchFullText' | 'searchArea' | 'searchFuzzy' | 'wordCandidates'>;
  placeMatcher: Pick<PlaceMatcherService, 'named' | 'misspelt' | 'atCategory'>;
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
  { name: 'named-region', when: always, run: namedRegion },
  { name: 'region-conflict', when: namesRegionElsewhere, run: nothingFound, final: true },
  { name: 'named-category', when: namesCategory, run: namedCategory },
  { name: 'named-places', when: always, run: namedPlaces },
  { name: 'full-text', when: boundAsTyped, run: fullTextAsTyped },
  { name: 'region-in-address', when: namesRegion, run: regionInAddress },
  { name: 'around-named-place', when: bestPlaceIsTheQuery, run: (s, d) => aroundPlace(s.places, s, d, []) },
  { name: 'word-corrections', when: always, run: wordCorrections },
  { name: 'corrected-places', when: wordsCorrected, run: correctedPlaces },
  { name: 'corrected-full-text', when: correctedWithoutPlaces, run: correctedFullText },
  { name: 'misspelt-places', when: always, run: misspeltPlaces },
  { name: 'meant-place-full-text', when: meansPlaces, run: meantPlaceFullText },
  {
    name: 'around-meant-place',
    when: meantPlaceIsBelievable,
    run: (s, d) => aroundPlace(s.meant, s, d, s.corrections),
  },
  { name: 'unbound-full-text', when: unboundAsTyped, run: unboundFullText },
  { name: 'similar-text', when: someWordMisspelt, run: similarText },
  { name: 'nothing-found', when: always, run: nothingFound, final: true },
];

// A country or region named at the end of the query ("Dallas, Poland", "Springfield, Illinois, USA")
// binds every later step to it; its words are not searched for in addresses. Not when a state has a
// town's name ("Washington" is a state and a city): the query may mean either; nor when the name ends
// the words after a comma that together name a town ("Dogwood Shores, South Jordan"). A country named like a
// town ("Lebanon", "Poland" in the United States) binds: region-in-address still finds the addresses
// that hold the name.
async function namedRegion(s: TextSearchState, deps: SearchSteps): Promise<void> {
  let named = namedRegionOf(s.text.text);
  if (!named) return;
  const inner = namedRegionOf(named.rest);
  if (inner && boundRegion(named.region.code, inner.region) === inner.region.code) named = inner;
  const rest = buildTextQuery(named.rest);
  if (!rest || (named.region.kind === 'region' && (await isPlaceName(named.words, s, deps, 'locality')))) return;
  if (named.part && (await isPlaceName(named.part, s, deps, 'locality'))) return;
  const region = boundRegion(s.plan.filters.region, named.region);
  s.namedRegion = named.region;
  // Ranking still compares addresses with the whole query (an address equal to it ranks first).
  s.text = { ...rest, text: s.text.text };
  if (region === null) {
    s.regionConflict = true;
    return;
  }
  s.region = region;
  s.plan = { ...s.plan, filters: { ...s.plan.filters, region } };
}

async function nothingFound(): Promise<StepAnswer> {
  return { page: EMPTY_PAGE, match: 'fallback', places: [], corrections: [] };
}

// The places the query names as typed. The vocabulary is in memory but for its first read (and one a
// minute after, see SearchRepository.vocabulary).
async function namedPlaces(s: TextSearchState, deps: SearchSteps): Promise<void> {
  s.places = await placesNamed(s.text, s.region, s, deps);
  if (s.places.length === 0 && s.namedRegion) await unbindPlaceName(s, deps);
  s.bound = s.places.length > 0 || unknownWords(s.text, s.vocabulary!).length === 0;
}

// A query whose end names a country but that is, whole, the name of a place ("Made in Italy", a shop;
// "Elma Handels Est", a firm) is that place, unbound. Asked only when the words before the country
// name no place in it, so a search that binds ("Springfield, Illinois") pays nothing for it.
async function unbindPlaceName(s: TextSearchState, deps: SearchSteps): Promise<void> {
  const region = s.requestPlan.filters.region ?? null;
  const places = await placesNamed(s.typed, region, s, deps);
  const key = s.typed.words.join(' ');
  if (!places.some((p) => tokenize(p.name).join(' ') === key)) return;
  Object.assign(s, { text: s.typed, plan: s.requestPlan, region, namedRegion: null, places });
}

async function fullTextAsTyped(s: TextSearchState, { repository }: SearchSteps): Promise<StepAnswer> {
  const page = await repository.searchFullText(s.text, s.window, s.plan, pinsOf(s.places));
  return { page, match: 'text', searched: s.text, places: s.places, corrections: [] };
}

// The whole query as typed, the region's name included, without the region filter: a record whose
// address names the region ("Gaziantep, Türkiye") is in it though no place links it there.
async function regionInAddress(s: TextSearchState, { repository }: SearchSteps): Promise<StepAnswer> {
  const page = await repository.searchFullText(s.typed, s.window, s.requestPlan, pinsOf(s.places));
  return { page, match: 'text', searched: s.typed, places: s.places, corrections: [] };
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
  const asked = unknown.length > 0 ? unknown : correctable;
  const candidates = await repository.wordCandidates(asked, unknown.length === 0);
  s.corrected = correctQuery(s.text, withTranspositions(candidates, asked, s.vocabulary!));
  s.corrections = s.corrected ? correctionsOf(s.text, s.corrected) : [];
}

// Places the corrected words name are the surer guess than the addresses holding them.
async function correctedPlaces(s: TextSearchState, deps: SearchSteps): Promise<void> {
  s.correctedPlaces = await placesNamed(s.corrected!, s.region, s, deps);
}

async function correctedFullText(s: TextSearchState, { repository }: SearchSteps): Promise<StepAnswer> {
  const page = await repository.searchFullText(s.corrected!, s.window, s.plan);
  return { page, match: 'corrected', searched: s.corrected!, places: [], corrections: s.corrections };
}

// The names most like the query, asked for only when the corrected words name no place: trigram
// similarity over every place name is the costliest statement of a typo.
// A similar name must also be a believable spelling of the query (see query-believability.ts).
async function misspeltPlaces(s: TextSearchState, { placeMatcher }: SearchSteps): Promise<void> {
  if (!noCorrectedPlaces(s)) {
    s.meant = s.correctedPlaces;
    return;
  }
  const similar = await placeMatcher.misspelt(s.text, s.region);
  s.meant = similar.filter((place) => placeResemblesQuery(s.text, place));
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

// A guess, given only when the best similar address resembles every word (see addressResemblesQuery).
// The best is the first of page one, whatever page was asked for, so every page of a search agrees.
async function similarText(s: TextSearchState, { repository }: SearchSteps): Promise<StepAnswer> {
  const page = await repository.searchFuzzy(s.text, s.window, s.plan);
  const best =
    s.window.offset === 0
      ? page.rows[0]
      : (await repository.searchFuzzy(s.text, { limit: 1, offset: 0 }, s.plan)).rows[0];
  const believable = best !== undefined && addressResemblesQuery(s.text, best.address);
  return { page: believable ? page : EMPTY_PAGE, match: 'fallback', searched: s.text, places: [], corrections: [] };
}
