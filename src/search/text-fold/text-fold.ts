import UNACCENT from './unaccent-rules.json';

// The one rule for folding text (case and accents), so a word typed as an address is stored is the
// word the database indexed. The database folds addresses and place names with lis_normalize:
// lower(unaccent(text)) with PostgreSQL's unaccent rules (src/database/functions/lis_normalize.sql).
// TypeScript folds queries and the names it compares with the same rules: unaccent-rules.json is
// PostgreSQL's unaccent.rules as the built-in database has it (`npm run text-fold:rules` writes it),
// and lower() is applied as PostgreSQL applies it to a UTF-8 database, code point by code point (a
// capital sigma is always σ, never the final ς). A PostgreSQL server of another version may have
// other rules: when the service connects, TextFoldRepository asks it how it folds every character
// the rules or lower case change, and its answers win (adoptDatabaseFolds).
const RULES: ReadonlyMap<string, string> = new Map(Object.entries(UNACCENT.rules));
/** Where the table was read from (a PostgreSQL release's unaccent.rules). */
export const UNACCENT_RULES_FROM: string = UNACCENT.from;

let databaseFolds = new Map<string, string>();
let asciiIsPlain = true;
const ASCII = /^[\p{ASCII}]*$/u;

export function foldText(s: string): string {
  if (asciiIsPlain && ASCII.test(s)) return s.toLowerCase();
  let out = '';
  for (const c of s) out += databaseFolds.get(c) ?? tableFold(c);
  return out;
}

// What the committed rules and lower() make of one character.
function tableFold(c: string): string {
  const replaced = RULES.get(c);
  if (replaced === undefined) return lowerCodePoint(c);
  let out = '';
  for (const r of replaced) out += lowerCodePoint(r);
  return out;
}

// Simple case mapping, one code point to one, as PostgreSQL's lower(): a full mapping to several
// code points (İ to i and a combining dot) is not one.
function lowerCodePoint(c: string): string {
  const lower = c.toLowerCase();
  return lower.length === c.length ? lower : c;
}

/** Every character whose fold the database is asked for: each rule's, and each one lower case changes. */
export function charactersToCalibrate(): string[] {
  const chars = new Set(RULES.keys());
  for (let cp = 0; cp <= 0x1ffff; cp++) {
    if (cp >= 0xd800 && cp <= 0xdfff) continue;
    const c = String.fromCodePoint(cp);
    if (c.toLowerCase() !== c) chars.add(c);
  }
  return [...chars];
}

/** The database's fold of `chars` (in order) where it differs from the table's; returns the characters that differ. */
export function adoptDatabaseFolds(chars: readonly string[], folded: readonly string[]): string[] {
  const differ = new Map<string, string>();
  chars.forEach((c, i) => {
    if (folded[i] !== tableFold(c)) differ.set(c, folded[i]);
  });
  databaseFolds = differ;
  asciiIsPlain = ![...differ.keys()].some((c) => ASCII.test(c));
  return [...differ.keys()];
}
