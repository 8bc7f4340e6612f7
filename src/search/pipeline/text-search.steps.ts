import { pinsOf } from '../place-matching/place-ranking';
import { surroundingsPlan } from '../place-matching/place-surroundings';
import type { PlaceMatcherService } from '../place-matching/place-matcher.service';
import type { RankedPlace } from '../place-matching/place-ranking';
import type { SearchRepository } from '../search.repository';
import { boundRegion, namedRegionAtEnd } from '../query/named-region';
import { buildTextQuery } from '../query/text-query';
import { tokenize } from '../query/tokenize';
import {
  correctionsOf,
  correctionsToName,
  correctQuery,
  TO_CORRECT,
  unknownWords,
  withTranspositions,
  wordsToCorrect,
} from '../vocabulary/typo-correction';
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
  namesRegionAtEnd,
  wholeQueryNamesPlace,
  wordsCorrected,
} from './text-search.predicates';
import { namedCategory } from './named-category.step';
import { namedRegionAlone, queryIsRegion } from './named-region-alone.step';
import {
  fallbackLocality,
  fallbackRegion,
  fallbackStreet,
  hasCoarserPart,
  holdsNumberAndWords,
  namesRegionAfterAddressLine,
} from './fallback-by-parts.step';
import { misspeltNameFullText, namedThroughMisspelling } from './misspelt-name.step';
import { placesNamed } from './place-name';
import { placesInCircle, placesOutsideCircle } from './places-near-point.step';
import { EMPTY_PAGE, meantPlaces, StepAnswer, StepLearnt, StepOutcome, TextSearchState } from './text-search-state';

export interface SearchSteps {
  repository: Pick<SearchRepository, 'vocabulary' | 'searchFullText' | 'searchArea' | 'searchFuzzy' | 'wordCandidates'>;
  placeMatcher: Pick<
    PlaceMatcherService,
    'named' | 'misspelt' | 'atCategory' | 'addressTown' | 'regionPlace' | 'streetAddresses'
  >;
}

export interface TextSearchStep {
  name: string;
  /** Whether the step runs, given what the steps before it learnt (a lookup may decide it: text-search.predicates.ts). */
  when: (s: TextSearchState, deps: SearchSteps) => boolean | Promise<boolean>;
  /** What the step learnt (the runner makes the next state of it), or its answer: the first answer with matches ends the search. */
  run: (s: TextSearchState, deps: SearchSteps) => Promise<StepOutcome>;
  /** Its answer is the search's answer even when it found nothing (a step that answers nothing, void, does not end it). */
  final?: boolean;
}

// The whole text search, in order (Photon's order: strict first, lenient only when strict found
// nothing; Pelias's form: each strategy a named step under a named condition). The places a query
// names pin their imagery first (place-ranking.ts); ranking itself is the SQL's (sql/text-search.sql.ts).
export const TEXT_SEARCH_STEPS: readonly TextSearchStep[] = [
  { name: 'named-region', when: namesRegionAtEnd, run: namedRegion },
  { name: 'region-conflict', when: namesRegionElsewhere, run: nothingFound, final: true },
  { name: 'named-region-alone', when: queryIsRegion, run: namedRegionAlone, final: true },
  { name: 'named-category', when: namesCategory, run: namedCategory },
  { name: 'named-places', when: always, run: namedPlaces },
  { name: 'places-in-circle', when: placesOutsideCircle, run: placesInCircle },
  { name: 'whole-query-places', when: wholeQueryNamesPlace, run: wholeQueryPlaces },
  { name: 'misspelt-name', when: namedThroughMisspelling, run: misspeltNameFullText },
  { name: 'full-text', when: boundAsTyped, run: fullTextAsTyped },
  { name: 'region-in-address', when: namesRegion, run: regionInAddress },
  { name: 'around-named-place', when: bestPlaceIsTheQuery, run: (s, d) => aroundPlace(s.places, s, d, []) },
  { name: 'word-corrections', when: always, run: wordCorrections },
  { name: 'corrected-places', when: wordsCorrected, run: correctedPlaces },
  { name: 'corrected-full-text', when: correctedWithoutPlaces, run: correctedFullText },
  { name: 'misspelt-places', when: noCorrectedPlaces, run: misspeltPlaces },
  { name: 'meant-place-full-text', when: meansPlaces, run: meantPlaceFullText },
  {
    name: 'around-meant-place',
    when: meantPlaceIsBelievable,
    run: (s, d) => aroundPlace(meantPlaces(s), s, d, meantCorrections(s, meantPlaces(s))),
  },
  { name: 'unbound-full-text', when: unboundAsTyped, run: unboundFullText },
  { name: 'similar-text', when: someWordMisspelt, run: similarText },
  { name: 'fallback-street', when: holdsNumberAndWords, run: fallbackStreet },
  { name: 'fallback-locality', when: hasCoarserPart, run: fallbackLocality },
  { name: 'fallback-region', when: namesRegionAfterAddressLine, run: fallbackRegion },
  { name: 'nothing-found', when: always, run: nothingFound, final: true },
];

// The country or region named at the end of the query (namesRegionAtEnd) binds every later step to
// it; its words are not searched for in addresses.
async function namedRegion(s: TextSearchState): Promise<StepLearnt> {
  const named = namedRegionAtEnd(s.text.text)!;
  const region = boundRegion(s.plan.filters.region, named.region);
  // Ranking still compares addresses with the whole query (an address equal to it ranks first).
  const text = { ...buildTextQuery(named.rest)!, text: s.text.text };
  const learnt = { namedRegion: named.region, text, rest: named.rest };
  if (region === null) return { learnt: { ...learnt, regionConflict: true } };
  return { learnt: { ...learnt, region, plan: { ...s.plan, filters: { ...s.plan.filters, region } } } };
}

async function nothingFound(): Promise<StepAnswer> {
  return { page: EMPTY_PAGE, match: 'fallback', places: [], corrections: [] };
}

// The places the query names as typed (often asked already by named-category's condition: place-name.ts).
async function namedPlaces(s: TextSearchState, deps: SearchSteps): Promise<StepLearnt> {
  return { learnt: { places: await placesNamed(s.text, s.region, s, deps) } };
}

// A query whose end names a country but that is, whole, the name of a place (wholeQueryNamesPlace)
// is that place, unbound from the region.
async function wholeQueryPlaces(s: TextSearchState, deps: SearchSteps): Promise<StepLearnt> {
  const region = s.requestPlan.filters.region ?? null;
  const places = await placesNamed(s.typed, region, s, deps);
  return { learnt: { text: s.typed, rest: s.typed.text, plan: s.requestPlan, region, namedRegion: null, places } };
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
async function wordCorrections(s: TextSearchState, { repository }: SearchSteps): Promise<StepLearnt> {
  const correctable = wordsToCorrect(s.text);
  const unknown = [...new Set(unknownWords(s.text, s.vocabulary, TO_CORRECT))];
  const asked = unknown.length > 0 ? unknown : correctable;
  const candidates = await repository.wordCandidates(asked, unknown.length === 0);
  const corrected = correctQuery(s.text, withTranspositions(candidates, asked, s.vocabulary));
  return { learnt: { corrected, corrections: corrected ? correctionsOf(s.text, corrected) : [] } };
}

// Places the corrected words name are the surer guess than the addresses holding them.
// A correction says the word of the place meant ("chicao" is "chicago", not "chica", another
// spelling tried): the word of its name among the spellings its group tried.
async function correctedPlaces(s: TextSearchState, deps: SearchSteps): Promise<StepLearnt> {
  const places = await placesNamed(s.corrected!, s.region, s, deps);
  if (places.length === 0) return { learnt: { correctedPlaces: places } };
  const name = tokenize(places[0].name);
  const corrections = s.corrections.map((c) => {
    const group = s.corrected!.groups.find((g) => g.includes(c.from));
    return { from: c.from, to: group?.find((w) => w !== c.from && name.includes(w)) ?? c.to };
  });
  return { learnt: { correctedPlaces: places, corrections } };
}

async function correctedFullText(s: TextSearchState, { repository }: SearchSteps): Promise<StepAnswer> {
  const page = await repository.searchFullText(s.corrected!, s.window, s.plan);
  return { page, match: 'corrected', searched: s.corrected!, places: [], corrections: s.corrections };
}

// The names most like the query, asked for only when the corrected words name no place: trigram
// similarity over every place name is the costliest statement of a typo. A similar name must also be
// a believable spelling of the query (see query-believability.ts). The places meant are then these
// (meantPlaces), else the corrected words'.
async function misspeltPlaces(s: TextSearchState, { placeMatcher }: SearchSteps): Promise<StepLearnt> {
  const similar = await placeMatcher.misspelt(s.text, s.region);
  return { learnt: { misspelt: similar.filter((place) => placeResemblesQuery(s.text, place)) } };
}

async function meantPlaceFullText(s: TextSearchState, { repository }: SearchSteps): Promise<StepAnswer> {
  const searched = s.corrected ?? s.text;
  const meant = meantPlaces(s);
  const page = await repository.searchFullText(searched, s.window, s.plan, pinsOf(meant));
  return { page, match: 'corrected', searched, places: meant, corrections: meantCorrections(s, meant) };
}

// The words corrected to mean the places: the vocabulary's corrections, else the similar name's words.
function meantCorrections(s: TextSearchState, meant: RankedPlace[]): StepAnswer['corrections'] {
  return s.corrections.length > 0 ? s.corrections : correctionsToName(s.text, tokenize(meant[0].name));
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
