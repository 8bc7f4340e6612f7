import { namedRegionAtEnd } from '../query/named-region';
import { buildTextQuery } from '../query/text-query';
import { MISSPELT, unknownWords } from '../vocabulary/typo-correction';
import { isNameOf, isPlaceName, placesNamed } from './place-name';
import { placeCoversQuery, placeResemblesQuery } from './query-believability';
import type { SearchSteps } from './text-search.steps';
import { categoryRead, meantPlaces, TextSearchState } from './text-search-state';

// The conditions the steps of a text search run under (text-search.steps.ts), named so the list of
// steps reads as the rules it applies. A condition that needs a lookup (whether words are a place's
// name) asks it here, through the search's lookups (place-name.ts), so the step it guards reads the
// same answer without asking again.
export const always = (): boolean => true;

/**
 * A country or region is named at the end of the query ("Dallas, Poland", "Springfield, Illinois,
 * USA") and words are left before it. Not when a state has a town's name ("Washington" is a state and
 * a city): the query may mean either; nor when the name ends the words after a comma that together
 * name a town ("Dogwood Shores, South Jordan"). A country named like a town ("Lebanon", "Poland" in
 * the United States) is named: region-in-address still finds the addresses that hold the name.
 */
export async function namesRegionAtEnd(s: TextSearchState, deps: SearchSteps): Promise<boolean> {
  const named = namedRegionAtEnd(s.text.text);
  if (!named || !buildTextQuery(named.rest)) return false;
  if (named.region.kind === 'region' && (await isPlaceName(named.words, s, deps, 'locality'))) return false;
  return !(named.part && (await isPlaceName(named.part, s, deps, 'locality')));
}

/**
 * A region was named, the words before it name no place in it, and the whole query as typed is a
 * place's name or other name in the region the request asks for ("Made in Italy", a shop; "Elma
 * Handels Est", a firm; "Alma Ata", Almaty's old name, not Alma in Antarctica, ATA). Asked only when
 * those words name no place, so a search that binds ("Springfield, Illinois") pays nothing for it.
 */
export async function wholeQueryNamesPlace(s: TextSearchState, deps: SearchSteps): Promise<boolean> {
  if (s.namedRegion === null || s.places.length > 0) return false;
  const places = await placesNamed(s.typed, s.requestPlan.filters.region ?? null, s, deps);
  return places.some((p) => isNameOf(p, s.typed.words, true));
}

/** The words as typed can match: the query names a place, or the vocabulary holds every word. */
export const boundAsTyped = (s: TextSearchState): boolean =>
  s.places.length > 0 || unknownWords(s.text, s.vocabulary).length === 0;

/** Checked after the as-typed search: a word the vocabulary lacks may still be a location code. */
export const unboundAsTyped = (s: TextSearchState): boolean => !boundAsTyped(s);

export const namesPlaces = (s: TextSearchState): boolean => s.places.length > 0;

/** Some word was corrected against the vocabulary. */
export const wordsCorrected = (s: TextSearchState): boolean => s.corrected !== null;

/** Words were corrected but name no place: the addresses holding the corrected words. */
export const correctedWithoutPlaces = (s: TextSearchState): boolean =>
  s.corrected !== null && s.correctedPlaces.length === 0;

/** The corrected words named no place: the names most like the query are asked for. */
export const noCorrectedPlaces = (s: TextSearchState): boolean => s.correctedPlaces.length === 0;

export const meansPlaces = (s: TextSearchState): boolean => meantPlaces(s).length > 0;

/** The query names a region outside the one the request asks for. */
export const namesRegionElsewhere = (s: TextSearchState): boolean => s.regionConflict;

/**
 * The best place named is all the query says ("Vaduz", "Herrengasse 35 Vaduz"): its surroundings are
 * an answer. With other words ("Herrengasse, Dallas"), they are not: those words found nothing there.
 */
export const bestPlaceIsTheQuery = (s: TextSearchState): boolean =>
  s.places.length > 0 && placeCoversQuery(s.text, s.places[0]);

/**
 * The place meant is all the query says: named by all the corrected words, or (a similar name,
 * already a believable spelling, see misspelt-places) resembling every word of it.
 */
export function meantPlaceIsBelievable(s: TextSearchState): boolean {
  const [meant] = meantPlaces(s);
  if (!meant) return false;
  return s.corrected !== null && s.correctedPlaces.length > 0
    ? placeCoversQuery(s.corrected, meant)
    : placeResemblesQuery(s.text, meant);
}

/**
 * Some word is no address's: a misspelling the corrections could not place, which the
 * similar-addresses fallback may still find. Known words that match nothing together ("Orchard
 * Road" where no address has both, "Herrengasse, Dallas") are not sent to it: it would find
 * addresses that merely look alike.
 */
export const someWordMisspelt = (s: TextSearchState): boolean =>
  unknownWords(s.text, s.vocabulary, MISSPELT).length > 0;

/** The query names a region: an address may name it in words though the record is not linked to it. */
export const namesRegion = (s: TextSearchState): boolean => s.namedRegion !== null && !s.regionConflict;

/**
 * The query names a category of place ("restaurant", "hotel in Vaduz"; see category-query.ts), and is
 * not, whole, the name of a place: "Spring" is a term of trampoline parks and a town's name; a pub
 * named "Wirtschaft", a castle named "Schloss Vaduz". A name typed whole is that place before it is a
 * category; a category near coordinates is always one.
 */
export async function namesCategory(s: TextSearchState, deps: SearchSteps): Promise<boolean> {
  const read = categoryRead(s);
  if (!read) return false;
  return read.point !== null || !(await isPlaceName(s.text.text, s, deps, undefined, { otherNames: true }));
}
