import { allWordsTsquery } from '../query/tsquery';
import { TextQuery } from '../query/text-query';
import { tokenize } from '../query/tokenize';
import { ALT_NAME_SEPARATOR } from '../../places/place-record';
import { MAX_VIEWS, PlacePins, STREET_CENTRE_RADIUS_M } from '../sql/place-pins.sql';
import { PIN_WEIGHTS, PLACE_RANK_WEIGHTS } from '../ranking/score-weights';

export interface PlaceCandidate {
  id: string;
  kind: string;
  name: string;
  label: string;
  altNames: string;
  importance: number;
  lon: number;
  lat: number;
  /** Trigram similarity of the name to the query (misspelt names); null for full-text matches. */
  similarity: number | null;
}

/** An address with the street it is on (addresses named by a street and a town). */
export interface StreetAddressCandidate extends PlaceCandidate {
  street: string;
}

export interface RankedPlace extends PlaceCandidate {
  /** importance + how well the query names it; higher first. */
  rank: number;
}

// The places whose imagery a query pins, best first.
export const MAX_PINNED_PLACES = 20;

// How well the query names the place, or null when it does not mean it: every word of its name, or
// of one of its other names ("Muenchen" for Munich, "Illinois" for a town of Illinois), is in the
// query, the last query word possibly a prefix still being typed. So "London" means London but not
// New London, nor Croydon (whose other names include "London Borough of Croydon"). The name beats
// other names, and whole words beat completed prefixes.
export function nameFit(query: TextQuery, place: PlaceCandidate): number | null {
  if (place.similarity !== null) return place.similarity;
  const name = coverage(query, nameWords.of(place.name)[0]);
  if (name !== null) return name === 'exact' ? 0.5 : 0.3;
  const others = altNameWords.of(place.altNames).map((words) => coverage(query, words));
  if (others.includes('exact')) return 0.4;
  return others.includes('prefix') ? 0.25 : null;
}

// The words of names (a name, or a place's other names, one string), tokenized once: ranking reads
// every other name of up to 200 places per search (a city has dozens, in many scripts), and
// as-you-type searches meet the same places again and again. Bounded by the characters of the names
// it holds, the oldest going first (cities' other names are long; memory: docs/benchmarks.md#fig-name-words-cache).
// A string of several names that is not held is split and each name looked up on its own, in a
// second cache of single names with the same bound: most of a place's other names are its region's
// and country's ("United States", "Vereinigte Staaten von Amerika", ...), the same for thousands of
// places, so they stay held when the whole strings cycle out.
export class NameWordsCache {
  private readonly entries: BoundedWords<string[][]>;
  private readonly names: BoundedWords<string[]> | null;

  constructor(
    maxChars: number,
    /** The string holds several names (ALT_NAME_SEPARATOR); else one. */
    private readonly several: boolean,
  ) {
    this.entries = new BoundedWords(maxChars);
    this.names = several ? new BoundedWords(maxChars) : null;
  }

  /** Characters of the strings held whole (not counting the single names' cache). */
  get heldChars(): number {
    return this.entries.chars;
  }

  of(names: string): string[][] {
    return this.entries.get(names, () =>
      this.names ? names.split(SEPARATOR).map((n) => this.names!.get(n, () => tokenize(n))) : [tokenize(names)],
    );
  }
}

const SEPARATOR = ALT_NAME_SEPARATOR.trim();

// Values by string key, at most maxChars characters of keys held, the oldest out first; a key longer
// than the bound is computed every time, never held.
class BoundedWords<T> {
  private readonly held = new Map<string, T>();
  chars = 0;

  constructor(private readonly maxChars: number) {}

  get(key: string, compute: () => T): T {
    let value = this.held.get(key);
    if (value === undefined) {
      value = compute();
      if (key.length > this.maxChars) return value;
      for (const oldest of this.held.keys()) {
        if (this.chars + key.length <= this.maxChars) break;
        this.held.delete(oldest);
        this.chars -= oldest.length;
      }
      this.held.set(key, value);
      this.chars += key.length;
    }
    return value;
  }
}

const nameWords = new NameWordsCache(50_000, false);
const altNameWords = new NameWordsCache(400_000, true);
const labelWords = new NameWordsCache(50_000, false);

// Whether the words hold every word of the query whole (any spelling of its group).
function holdsEveryWord(words: readonly string[], query: TextQuery): boolean {
  return query.groups.every((g) => g.some((w) => words.includes(w)));
}

function coverage(query: TextQuery, words: readonly string[]): 'exact' | 'prefix' | null {
  if (words.length === 0) return null;
  const typed = query.groups[query.groups.length - 1][0];
  let prefixed = false;
  for (const word of words) {
    if (query.groups.some((g) => g.includes(word))) continue;
    if (!word.startsWith(typed)) return null;
    prefixed = true;
  }
  return prefixed ? 'prefix' : 'exact';
}

// The places a query means, best first: how well it names them plus how important they are
// ("London" is London, England before London, Ontario; "Springfield" lists every Springfield).
export function rankPlaces(query: TextQuery, candidates: readonly PlaceCandidate[]): RankedPlace[] {
  const ranked: RankedPlace[] = [];
  for (const c of candidates) {
    const fit = nameFit(query, c);
    if (fit === null) continue;
    // Of two places the query names alike, the one whose label holds every word whole: "Landstrasse
    // 80, Triesen" is the one in Triesen before the one in Triesenberg.
    const whole = holdsEveryWord(labelWords.of(c.label)[0], query);
    ranked.push({ ...c, rank: c.importance + fit + (whole ? PLACE_RANK_WEIGHTS.labelHoldsEveryWord : 0) });
  }
  ranked.sort((a, b) => b.rank - a.rank || b.importance - a.importance || (a.id < b.id ? -1 : 1));
  return ranked.slice(0, MAX_PINNED_PLACES);
}

// Places a record shows from the street: an address or a POI (a shop, a hut, a peak) the query
// names is best seen by the records nearest to it that face it, whatever address they recovered.
export function isViewed(place: Pick<RankedPlace, 'kind'>): boolean {
  return place.kind === 'address' || place.kind === 'poi';
}

export function pinsOf(places: readonly RankedPlace[]): PlacePins | null {
  if (places.length === 0) return null;
  const scores = places.map((_, i) => PIN_WEIGHTS.base + PIN_WEIGHTS.step * (places.length - i));
  const [best] = places;
  const views = places
    .map((p, i) => ({ id: p.id, lon: p.lon, lat: p.lat, score: scores[i], viewed: isViewed(p) }))
    .filter((v) => v.viewed)
    .slice(0, MAX_VIEWS)
    .map(({ id, lon, lat, score }) => ({ id, lon, lat, score }));
  // A name without words (only symbols) is an empty tsquery, which matches nothing.
  const names = places.map((p) => allWordsTsquery(nameInAddresses(p.name)) ?? '');
  const centre = best.kind === 'locality' ? { id: best.id, lon: best.lon, lat: best.lat } : null;
  return { ids: places.map((p) => p.id), scores, names, nameWords: wordsInAddresses(best.name), views, centre };
}

/** The pins of a street a fallback by parts answers with: its records nearest its point first (STREET_CENTRE_RADIUS_M). */
export function streetPinsOf(places: readonly RankedPlace[]): PlacePins | null {
  const pins = pinsOf(places);
  const [best] = places;
  if (!pins || best.kind !== 'street') return pins;
  return { ...pins, centre: { id: best.id, lon: best.lon, lat: best.lat, radiusM: STREET_CENTRE_RADIUS_M } };
}

// The words of a name that its records' addresses hold: not its initials, which addresses write
// otherwise ("Washington, D.C." is "Washington, DC" in addresses: the words d and c against dc),
// unless the name is nothing but initials.
export function nameInAddresses(name: string): string {
  return wordsInAddresses(name).join(' ');
}

function wordsInAddresses(name: string): string[] {
  const words = tokenize(name);
  const longer = words.filter((w) => [...w].length > 1);
  return longer.length > 0 ? longer : words;
}
