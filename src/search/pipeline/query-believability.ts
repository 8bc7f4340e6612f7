import type { PlaceCandidate } from '../place-matching/place-ranking';
import { ALT_NAME_SEPARATOR } from '../../places/place-record';
import { isRegionName } from '../query/named-region';
import { TextQuery } from '../query/text-query';
import { tokenize } from '../query/tokenize';
import { allowedTypos, editDistance } from '../vocabulary/typo-correction';

// When an approximate answer is believable enough to give; else the search says it found nothing.
// Each rule compares the words as typed with words of the answer, with the typo allowance of
// vocabulary/typo-correction.ts (none for numbers and words under three letters, one up to five letters, two
// beyond); the last word may be a prefix still being typed.

/** Every query word is a word of the place (its name, label or other names): the query names only it. */
export function placeCoversQuery(query: TextQuery, place: PlaceCandidate): boolean {
  return everyWordNear(query, placeWords(place), () => 0);
}

// Other names this short are codes (of regions, countries, airports), not names a part of an address gives.
const MAX_CODE_LENGTH = 3;

/**
 * The words name the place exactly: every word is a word of the place, whole (no prefix, no typo),
 * and every word of its name, or of one of its other names that is not a region's or country's
 * ("Liechtenstein" is another name of Vaduz) nor a code ("UK", a region code of the Central African
 * Republic), is in the words. So "Schaan" names Schaan, and neither "Schaa" nor "Liechtenstein" does.
 */
export function placeNamesQuery(query: TextQuery, place: PlaceCandidate): boolean {
  if (!everyWordNear(query, placeWords(place), () => 0, false)) return false;
  const held = (name: string) => {
    const words = tokenize(name);
    return words.length > 0 && words.every((w) => query.groups.some((g) => g.includes(w)));
  };
  if (held(place.name)) return true;
  return place.altNames
    .split(ALT_NAME_SEPARATOR)
    .some((name) => name.trim().length > MAX_CODE_LENGTH && held(name) && !isRegionName(name));
}

/** Every query word is within its typo allowance of a word of the place: "New Yrok" for New York, not New Yekepa. */
export function placeResemblesQuery(query: TextQuery, place: PlaceCandidate): boolean {
  return everyWordNear(query, placeWords(place), allowedTypos);
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

function everyWordNear(
  query: TextQuery,
  words: string[],
  allowance: (w: string) => number,
  lastAsPrefix = true,
): boolean {
  const last = lastAsPrefix ? query.groups.length - 1 : -1;
  return query.groups.every((group, i) =>
    group.some((typed) => {
      const allowed = allowance(typed);
      return words.some(
        (w) => w === typed || (i === last && w.startsWith(typed)) || editDistance(typed, w, i === last) <= allowed,
      );
    }),
  );
}
