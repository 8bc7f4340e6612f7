import type { TextSearchState } from './text-search-state';

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
