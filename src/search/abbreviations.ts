// Words that mean the same in an address. A query word that is in a group also matches every other
// word of its group, in either direction ("Main St" finds "Main Street" and the other way round).
// Words are folded (lower case, no accents, ß -> ss), as tokenize() produces them. A word may sit in
// several groups ("st" is Street and Saint).
export const ABBREVIATION_GROUPS: readonly (readonly string[])[] = [
  // English street types (USPS Publication 28 and common British forms)
  ['street', 'st'],
  ['avenue', 'ave', 'av'],
  ['road', 'rd'],
  ['drive', 'dr'],
  ['boulevard', 'blvd', 'bd'],
  ['lane', 'ln'],
  ['court', 'ct'],
  ['place', 'pl'],
  ['square', 'sq'],
  ['terrace', 'ter', 'terr'],
  ['circle', 'cir'],
  ['highway', 'hwy'],
  ['parkway', 'pkwy'],
  ['expressway', 'expy'],
  ['freeway', 'fwy'],
  ['trail', 'trl'],
  ['crescent', 'cres'],
  ['close', 'cl'],
  ['center', 'centre', 'ctr'],
  ['heights', 'hts'],
  ['junction', 'jct'],
  ['mount', 'mt'],
  ['fort', 'ft'],
  ['saint', 'st'],
  ['sainte', 'ste'],
  // Directions
  ['north', 'n'],
  ['south', 's'],
  ['east', 'e'],
  ['west', 'w'],
  ['northeast', 'ne'],
  ['northwest', 'nw'],
  ['southeast', 'se'],
  ['southwest', 'sw'],
  // German, Dutch, Spanish (Straße is folded to strasse before lookup)
  ['strasse', 'str'],
  ['straat', 'str'],
  ['platz', 'pl'],
  ['avenida', 'avda', 'av'],
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

// Other spellings of one folded word, without the word itself.
export function equivalentWords(word: string): string[] {
  const out = new Set(EQUIVALENTS.get(word) ?? []);
  for (const [long, short] of COMPOUND_ENDINGS) {
    if (word.length > long.length && word.endsWith(long)) out.add(word.slice(0, -long.length) + short);
    if (word.length > short.length + 2 && word.endsWith(short)) out.add(word.slice(0, -short.length) + long);
  }
  out.delete(word);
  return [...out];
}
