import type { PlaceCandidate } from '../place-matching/place-ranking';
import { TextQuery, tokenize } from '../search-query';
import { allowedTypos, editDistance } from '../typo-correction';
import type { Vocabulary } from '../vocabulary-lookup';

// When an approximate answer is believable enough to give; else the search says it found nothing.
// Each rule compares the words as typed with words of the answer, with the typo allowance of
// typo-correction.ts (none for numbers and words under three letters, one up to five letters, two
// beyond); the last word may be a prefix still being typed.

/** Every query word is a word of the place (its name, label or other names): the query names only it. */
export function placeCoversQuery(query: TextQuery, place: PlaceCandidate): boolean {
  return everyWordNear(query, placeWords(place), () => 0);
}

/** Every query word is within its typo allowance of a word of the place: "New Yrok" for New York, not New Yekepa. */
export function placeResemblesQuery(query: TextQuery, place: PlaceCandidate): boolean {
  return everyWordNear(query, placeWords(place), allowedTypos);
}

/**
 * Some word is not one the catalogue's addresses hold: a misspelling the corrections could not place,
 * which the similar-addresses fallback may still find. Known words that match nothing together
 * ("Orchard Road" where no address has both, "Herrengasse, Dallas") are not sent to it: it would
 * find addresses that merely look alike.
 */
export function someWordUnknown(query: TextQuery, vocabulary: Vocabulary | undefined): boolean {
  if (!vocabulary) return true;
  const last = query.words.length - 1;
  return query.words.some(
    (w, i) =>
      allowedTypos(w) > 0 && vocabulary.docsOf(w) === undefined && !(i === last && vocabulary.completions(w).words > 0),
  );
}

/**
 * Every word that may hold a typo is within its allowance of a word of the address: the similar
 * address is the query misspelt ("Dhlanson Lane" for Delanson Lane), not another street that shares
 * letters with it ("Rosenstrasse" is not Rheinstrasse). Numbers and short words are not compared.
 */
export function addressResemblesQuery(query: TextQuery, address: string): boolean {
  const words = [...new Set(tokenize(address))];
  const last = query.groups.length - 1;
  return query.groups.every(
    (group, i) =>
      allowedTypos(group[0]) === 0 ||
      group.some((typed) => words.some((w) => editDistance(typed, w, i === last) <= allowedTypos(typed))),
  );
}

function placeWords(place: PlaceCandidate): string[] {
  return [...new Set(tokenize(`${place.name} ${place.label} ${place.altNames}`))];
}

function everyWordNear(query: TextQuery, words: string[], allowance: (w: string) => number): boolean {
  const last = query.groups.length - 1;
  return query.groups.every((group, i) =>
    group.some((typed) => {
      const allowed = allowance(typed);
      return words.some(
        (w) => w === typed || (i === last && w.startsWith(typed)) || editDistance(typed, w, i === last) <= allowed,
      );
    }),
  );
}
