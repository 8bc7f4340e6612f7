import { isoCountries as countries } from '../../places/country-names';
import { allCountries, allRegions, Region, regionByCode } from '../../places/regions';
import { dropsNoise, joinDottedInitials, tokenize } from './tokenize';

// A country or first-level region the query names after the place ("Dallas, Poland", "Tulsa OK",
// "Vaduz, LIE", "Springfield Illinois"): it binds the search to that region, so no step (a
// correction, a similar name) can answer from another one. Recognised at the end of the query:
// - after a comma: a country's name (English, German, French, Italian, Spanish), its ISO alpha-2 or
//   alpha-3 code, an ISO 3166-2 code ("US-TX"), or a region of a country that writes regions in
//   addresses (REGION_CODE_COUNTRIES) by name or short code ("TX");
// - without a comma: English names and alpha-3 codes only (names in other languages are English words
//   too often: "Island" is Iceland in German; two-letter codes are too many words).
// A name or code that means two regions ("Georgia", "CA" as Canada and California) binds nothing;
// nor do the last words after a connecting word ("Rue de France" is a street), nor words of which the
// query's noise rules dropped a part: what is left of "At&t" (a town) is "at", Austria's code.
const REGION_CODE_COUNTRIES = ['US', 'CA', 'AU'];
const NAME_LANGUAGES = ['en', 'de', 'fr', 'it', 'es'];
const CONNECTORS = new Set([
  'de',
  'du',
  'des',
  'di',
  'da',
  'do',
  'of',
  'the',
  'del',
  'della',
  'von',
  'van',
  'am',
  'an',
]);
const MAX_QUALIFIER_WORDS = 4;
const AMBIGUOUS = null;

export interface NamedRegion {
  region: Region;
  /** The query without the words naming the region. */
  rest: string;
  /** The words naming it, as typed. */
  words: string;
  /**
   * Read without a comma from the end of the words after the last comma, and with words before it
   * there: those words whole ("South Jordan", a town), which may be a place's name rather than a
   * place in the region.
   */
  part?: string;
}

type RegionIndex = Map<string, Region | typeof AMBIGUOUS>;
let index: { englishNames: RegionIndex; names: RegionIndex; commaCodes: RegionIndex } | undefined;

function add(map: RegionIndex, key: string, region: Region): void {
  if (!key) return;
  const held = map.get(key);
  if (held === undefined) map.set(key, region);
  else if (held !== AMBIGUOUS && held.code !== region.code) map.set(key, AMBIGUOUS);
}

// Dotted initials are the code they spell: "N.Y." is NY, "U.S.A." USA, "D.C." DC.
export const regionKey = (text: string) => tokenize(joinDottedInitials(text)).join(' ');
const keyOf = regionKey;

function regionIndex() {
  if (index) return index;
  const englishNames: RegionIndex = new Map();
  const names: RegionIndex = new Map();
  const commaCodes: RegionIndex = new Map();
  for (const country of allCountries()) {
    const alpha3 = countries.alpha2ToAlpha3(country.code)?.toLowerCase();
    for (const lang of NAME_LANGUAGES)
      for (const name of [country.name, ...(countries.getName(country.code, lang, { select: 'all' }) ?? [])])
        if (name.length > 2) add(lang === 'en' ? englishNames : names, keyOf(name), country);
    if (alpha3) add(englishNames, alpha3, country);
    add(commaCodes, country.code.toLowerCase(), country);
  }
  for (const entry of allRegions()) {
    if (!REGION_CODE_COUNTRIES.includes(entry.countryCode)) continue;
    const region = regionByCode(entry.code)!;
    add(englishNames, keyOf(entry.name), region);
    add(commaCodes, entry.shortCode.toLowerCase(), region);
  }
  // After a comma, names in every language count too; a two-letter code keeps its code meaning.
  for (const [key, region] of englishNames) {
    if (region === AMBIGUOUS) names.set(key, AMBIGUOUS);
    else add(names, key, region);
  }
  for (const [key, region] of names) if (!commaCodes.has(key)) commaCodes.set(key, region);
  index = { englishNames, names, commaCodes };
  return index;
}

function lookUp(tail: string, afterComma: boolean): Region | typeof AMBIGUOUS | undefined {
  const trimmed = tail.trim();
  if (/^[A-Za-z]{2}-[A-Za-z0-9]{1,3}$/.test(trimmed)) return regionByCode(trimmed);
  const key = keyOf(trimmed);
  if (!key || dropsNoise(trimmed)) return undefined;
  const { englishNames, commaCodes } = regionIndex();
  return afterComma ? commaCodes.get(key) : englishNames.get(key);
}

/**
 * The country or first-level region that the whole text names, by name (in the languages known here)
 * or ISO code (alpha-2, alpha-3, ISO 3166-2; a US, Canadian or Australian region's short code too);
 * undefined when it names none, or two ("Georgia", "CA").
 */
export function regionNamedBy(text: string): Region | undefined {
  return lookUp(text, true) ?? undefined;
}

/** As regionNamedBy, but null when the text names two regions (and undefined when it names none). */
export function regionOrAmbiguity(text: string): Region | null | undefined {
  return lookUp(text, true);
}

/** Whether the words are a country's or a first-level region's name or code in any language known here. */
export function isRegionName(words: string): boolean {
  const key = keyOf(words);
  return key.length > 0 && regionIndex().commaCodes.has(key);
}

// The region the query names at its end, and the query without it; null when it names none, or the
// rest would be empty (a query that is only "Germany" searches for the country as a place).
export function namedRegionOf(query: string): NamedRegion | null {
  const comma = query.lastIndexOf(',');
  if (comma > 0) {
    const rest = query.slice(0, comma).trim();
    const found = tokenize(rest).length > 0 ? lookUp(query.slice(comma + 1), true) : undefined;
    if (found === AMBIGUOUS) return null;
    if (found) return { region: found, rest, words: query.slice(comma + 1).trim() };
  }
  const words = query.trim().split(/\s+/);
  for (let n = Math.min(MAX_QUALIFIER_WORDS, words.length - 1); n >= 1; n--) {
    const restWords = words.slice(0, -n);
    const before = tokenize(restWords[restWords.length - 1] ?? '').pop();
    if (before === undefined || CONNECTORS.has(before)) continue;
    const found = lookUp(words.slice(-n).join(' '), false);
    if (found === AMBIGUOUS) return null;
    if (found) {
      const named = words.slice(-n).join(' ');
      const part = comma > 0 ? query.slice(comma + 1).trim() : '';
      const rest = restWords.join(' ').replace(/[\s,]+$/u, '');
      return { region: found, rest, words: named, ...(part.length > named.length && { part }) };
    }
  }
  return null;
}

/**
 * The region named at the end of the query, as namedRegionOf reads it; of two named one after the
 * other, the narrower when it lies in the wider ("Springfield, Illinois, USA" is Illinois).
 */
export function namedRegionAtEnd(query: string): NamedRegion | null {
  const named = namedRegionOf(query);
  if (!named) return null;
  const inner = namedRegionOf(named.rest);
  return inner && boundRegion(named.region.code, inner.region) === inner.region.code ? inner : named;
}

// The region to search in when the request asks for `requested` and the query names `named`: the
// narrower of the two when one lies in the other; null when they do not meet (nothing can match).
export function boundRegion(requested: string | undefined, named: Region): string | null {
  if (requested === undefined || requested === named.code) return named.code;
  if (named.kind === 'region' && named.countryCode === requested) return named.code;
  if (requested.startsWith(`${named.code}-`)) return requested;
  return null;
}
