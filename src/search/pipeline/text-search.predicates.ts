import { placeCoversQuery, placeResemblesQuery, someWordUnknown } from './query-believability';
import { categoryRead, TextSearchState } from './text-search-state';

// The conditions the steps of a text search run under (text-search.steps.ts), named so the list of
// steps reads as the rules it applies.
export const always = (): boolean => true;

/** The words as typed can match: the query names a place, or the vocabulary holds every word. */
export const boundAsTyped = (s: TextSearchState): boolean => s.bound;

/** Checked after the as-typed search: a word the vocabulary lacks may still be a location code. */
export const unboundAsTyped = (s: TextSearchState): boolean => !s.bound;

export const namesPlaces = (s: TextSearchState): boolean => s.places.length > 0;

/** Some word was corrected against the vocabulary. */
export const wordsCorrected = (s: TextSearchState): boolean => s.corrected !== null;

/** Words were corrected but name no place: the addresses holding the corrected words. */
export const correctedWithoutPlaces = (s: TextSearchState): boolean =>
  s.corrected !== null && s.correctedPlaces.length === 0;

/** The corrected words named no place: the names most like the query are asked for. */
export const noCorrectedPlaces = (s: TextSearchState): boolean => s.correctedPlaces.length === 0;

export const meansPlaces = (s: TextSearchState): boolean => s.meant.length > 0;

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
export const meantPlaceIsBelievable = (s: TextSearchState): boolean =>
  s.meant.length > 0 &&
  (s.corrected !== null && s.meant === s.correctedPlaces
    ? placeCoversQuery(s.corrected, s.meant[0])
    : placeResemblesQuery(s.text, s.meant[0]));

/** Some word is no address's: a misspelling the corrections missed (see someWordUnknown). */
export const someWordMisspelt = (s: TextSearchState): boolean => someWordUnknown(s.text, s.vocabulary);

/** The query names a region: an address may name it in words though the record is not linked to it. */
export const namesRegion = (s: TextSearchState): boolean => s.namedRegion !== null && !s.regionConflict;

/** The query names a category of place ("restaurant", "hotel in Vaduz"; see category-query.ts). */
export const namesCategory = (s: TextSearchState): boolean => categoryRead(s) !== null;
