import PLACE_ABBREVIATIONS from './place-abbreviations.json';
import { umlautSpellings } from '../text-fold/umlaut-spellings';

// Words that mean the same in an address or a place name. A query word that is in a group also
// matches every other word of its group, in either direction ("Main St" finds "Main Street", "Mt
// Vernon" finds "Mount Vernon", and the other way round). Words are folded (lower case, no accents,
// ß -> ss), as tokenize() produces them. A word may sit in several groups ("st" is Street, Saint and
// Sankt). The groups are Mapbox's geocoder-abbreviations (English, French and German), written to
// place-abbreviations.json by `npm run gazetteer:abbreviations` (test/gazetteer/place-abbreviations.ts
// says which of its entries are kept), and the few below that it lacks.
const GROUPS_NOT_IN_THE_PACKAGE: readonly (readonly string[])[] = [
  ['terrace', 'terr'],
  ['port', 'pt'],
  ['straat', 'str'],
  ['avenida', 'avda', 'av'],
];

export const ABBREVIATION_GROUPS: readonly (readonly string[])[] = [
  ...PLACE_ABBREVIATIONS.groups,
  ...GROUPS_NOT_IN_THE_PACKAGE,
];

// German-style compounds write the street type into the name: "Bahnhofstr." is "Bahnhofstrasse".
// [long ending, short ending]: a word with either ending also matches the other.
export const COMPOUND_ENDINGS: readonly (readonly [string, string])[] = [['strasse', 'str']];

const EQUIVALENTS = new Map<string, Set<string>>();
for (const group of ABBREVIATION_GROUPS) {
  for (const word of group) {
    const set = EQUIVALENTS.get(word) ?? new Set<string>();
    for (const other of group) if (other !== word) set.add(other);
    EQUIVALENTS.set(word, set);
  }
}

// Other spellings of one folded word, without the word itself: its abbreviations or long forms, the
// street type of a compound in its other form, and the word as typed for an umlaut ("muenchen" is
// "munchen", how the index folds "München").
export function equivalentWords(word: string): string[] {
  const out = new Set([...(EQUIVALENTS.get(word) ?? []), ...umlautSpellings(word)]);
  for (const [long, short] of COMPOUND_ENDINGS) {
    if (word.length > long.length && word.endsWith(long)) out.add(word.slice(0, -long.length) + short);
    if (word.length > short.length + 2 && word.endsWith(short)) out.add(word.slice(0, -short.length) + long);
  }
  out.delete(word);
  return [...out];
}
