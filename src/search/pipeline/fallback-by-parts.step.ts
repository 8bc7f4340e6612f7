import { distanceM } from '../../photos/metadata/geodesy';
import { pinsOf, RankedPlace, streetPinsOf } from '../place-matching/place-ranking';
import { surroundingsPlan } from '../place-matching/place-surroundings';
import { TextQuery, textQueryFromGroups } from '../query/text-query';
import { tokenize } from '../query/tokenize';
import { isRegionName } from '../query/named-region';
import { placeCoversQuery, placeNamesQuery } from './query-believability';
import { placesNamed } from './place-name';
import type { SearchSteps } from './text-search.steps';
import { FallbackLevel, StepAnswer, TextSearchState } from './text-search-state';

// Fallback by parts (Pelias's cascading fallback, Nominatim's "a missing house number falls back to
// the road"): when the whole query found nothing, the next coarser part the query names answers,
// number -> street -> postcode or locality -> region or country. A part answers only when a place
// of its level is named by exactly its words (placeNamesQuery: no prefix, no typo) in the region
// searched, so no step answers with a place the query did not name.

// A coarser part is the end of the query: a place name rarely has more words.
const MAX_PART_WORDS = 4;
const LOCALITY_KINDS = new Set(['locality', 'postcode']);

const isNumber = (word: string) => /\p{N}/u.test(word);

function partOf(groups: string[][]): TextQuery {
  return textQueryFromGroups(groups, groups.map((g) => g[0]).join(' '), null);
}

/** The query without one of its numbers (the house number), each number in turn, first first. */
export function withoutNumber(text: TextQuery): TextQuery[] {
  if (text.groups.length < 2) return [];
  return text.groups.flatMap((g, i) => (isNumber(g[0]) ? [partOf(text.groups.filter((_, j) => j !== i))] : []));
}

/**
 * The coarser parts of the query, finer first: what follows each comma of what is left of the query
 * once a named region is taken off (`rest`), and its last words, up to MAX_PART_WORDS of them.
 */
export function coarserParts(text: TextQuery, rest: string): TextQuery[] {
  const n = text.groups.length;
  const starts = new Set<number>();
  for (let at = rest.indexOf(','); at >= 0; at = rest.indexOf(',', at + 1))
    starts.add(tokenize(rest.slice(0, at)).length);
  for (let start = n - MAX_PART_WORDS; start < n; start++) starts.add(start);
  return [...starts]
    .filter((start) => start > 0 && start < n)
    .sort((a, b) => a - b)
    .map((start) => partOf(text.groups.slice(start)));
}

// A US ZIP+4 code ("90210-1234"): the ZIP alone names the postcode when the +4 part is not known.
const ZIP_PLUS_FOUR = /\b\d{5}-\d{4}\b/u;

/** The query with the +4 part of its ZIP+4 code left out, when it has one. */
export function withoutPlusFour(text: TextQuery, rest: string): TextQuery | null {
  if (!ZIP_PLUS_FOUR.test(rest)) return null;
  const at = text.groups.findIndex((g, i) => /^\d{4}$/u.test(g[0]) && /^\d{5}$/u.test(text.groups[i - 1]?.[0] ?? ''));
  return at < 0 ? null : partOf(text.groups.filter((_, i) => i !== at));
}

/** The query holds a number and other words: a house number that may be missing. */
export const holdsNumberAndWords = (s: TextSearchState): boolean =>
  s.text.groups.length > 1 && s.text.words.some(isNumber);

/** The query has a part coarser than the whole (several words). */
export const hasCoarserPart = (s: TextSearchState): boolean => s.text.groups.length > 1;

/**
 * The query named a region, and what is left is an address line (it holds a number) that the region
 * has no place for: the region answers. A name alone in a region that lacks it ("Vaduz, Poland",
 * "Springfeld, Kenya") is a town named in the wrong country, which finds nothing.
 */
export const namesRegionAfterAddressLine = (s: TextSearchState): boolean =>
  s.namedRegion !== null && !s.regionConflict && s.text.words.some(isNumber);

// The places of these words in the region searched that the words name exactly, of the given kinds.
async function placesOfPart(
  part: TextQuery,
  kinds: ReadonlySet<string>,
  s: TextSearchState,
  deps: SearchSteps,
): Promise<RankedPlace[]> {
  const places = await placesNamed(part, s.region, s, deps);
  return places.filter((p) => kinds.has(p.kind) && placeNamesQuery(part, p));
}

// Whether a longer end of the query than `part` names a place or a region anywhere ("New York" for
// "York" of "New York United Kingdom"): then the part is a piece of another place's name, not a place
// of its own, and the query a place named in the wrong country.
async function longerPartNamesPlace(part: TextQuery, s: TextSearchState, deps: SearchSteps): Promise<boolean> {
  const start = s.text.groups.length - part.groups.length;
  for (let from = start - 1; from >= Math.max(0, start - MAX_PART_WORDS); from--) {
    const longer = partOf(s.text.groups.slice(from));
    if (isRegionName(longer.text)) return true;
    const places = await placesNamed(longer, null, s, deps);
    if (places.some((p) => placeCoversQuery(longer, p))) return true;
  }
  return false;
}

/** The part's imagery (the places' first), else the imagery nearest its best place; `unmatched`: the finer parts' words. */
export async function answerWith(
  level: FallbackLevel,
  part: TextQuery,
  places: RankedPlace[],
  s: TextSearchState,
  { repository }: SearchSteps,
  unmatched: string[] = s.text.words.filter((w) => !part.words.includes(w)),
): Promise<StepAnswer> {
  const fallback = { level, unmatched };
  const pins = level === 'street' ? streetPinsOf(places) : pinsOf(places);
  const page = await repository.searchFullText(part, s.window, s.plan, pins);
  if (page.total > 0) return { page, match: 'text', searched: part, places, corrections: [], fallback };
  const around = await repository.searchArea(s.window, surroundingsPlan(s.plan, places[0]));
  return { page: around, match: 'nearby', searched: part, places: [places[0]], corrections: [], fallback };
}

const STREET = new Set(['street']);
const POSTCODE = new Set(['postcode']);

/**
 * The street line of "<street> <number>, <town>" without its number, and the town after the comma;
 * null when the query has no comma after a line that holds a number and other words.
 */
export function streetLineAndTown(text: TextQuery, rest: string): { street: TextQuery; town: TextQuery } | null {
  const at = rest.indexOf(',');
  if (at < 0) return null;
  const n = tokenize(rest.slice(0, at)).length;
  if (n <= 0 || n >= text.groups.length) return null;
  const street = text.groups.slice(0, n).filter((g) => !isNumber(g[0]));
  if (street.length === 0 || street.length === n) return null;
  return { street: partOf(street), town: partOf(text.groups.slice(n)) };
}

// How far from a town's point its streets may run: a village's streets are often labelled with the
// municipality around it, not with the village the address names.
const TOWN_STREETS_M = 3000;

// The streets the street line names exactly that run near a town the rest of the query names exactly.
async function streetsNearTown(s: TextSearchState, deps: SearchSteps): Promise<[TextQuery, RankedPlace[]] | null> {
  const parts = streetLineAndTown(s.text, s.rest);
  if (!parts) return null;
  const towns = await placesOfPart(parts.town, LOCALITY_KINDS, s, deps);
  if (towns.length === 0) return null;
  const streets = await placesOfPart(parts.street, STREET, s, deps);
  const near = streets.filter((p) => towns.some((t) => distanceM(p, t) <= TOWN_STREETS_M));
  return near.length > 0 ? [parts.street, near] : null;
}

const spelledAsTyped = (name: string, street: TextQuery) => tokenize(name).join(' ') === street.words.join(' ');

/**
 * The streets, when one is spelt as the query spells it; else the street's addresses in the town
 * spelt as typed, when it has any (the data spells the street two ways: the query's spelling first);
 * else the streets, or when none the street's addresses in the town (a street that only its
 * addresses name, or in a town that is no locality: what the addresses name it).
 */
export async function streetOrItsAddresses(
  streets: RankedPlace[],
  street: TextQuery,
  town: TextQuery,
  s: TextSearchState,
  deps: SearchSteps,
): Promise<RankedPlace[]> {
  if (streets.some((p) => spelledAsTyped(p.name, street))) return streets;
  const addresses = await deps.placeMatcher.streetAddresses(street, town, s.region);
  const typed = addresses.filter((a) => spelledAsTyped(a.street, street));
  if (typed.length > 0) return typed;
  return streets.length > 0 ? streets : addresses;
}

/**
 * fallback-street: the query without its house number names a street: the street's imagery. A
 * street labelled with another town than the query's is the query's when it runs near that town, and
 * one no street place names is its addresses that name the town (streetOrItsAddresses).
 */
export async function fallbackStreet(s: TextSearchState, deps: SearchSteps): Promise<StepAnswer | void> {
  const line = streetLineAndTown(s.text, s.rest);
  for (const part of withoutNumber(s.text)) {
    const places = await placesOfPart(part, STREET, s, deps);
    if (places.length === 0) continue;
    const chosen = line ? await streetOrItsAddresses(places, line.street, line.town, s, deps) : places;
    return answerWith('street', part, chosen, s, deps);
  }
  const near = await streetsNearTown(s, deps);
  if (near) return answerWith('street', near[0], near[1], s, deps);
  if (!line) return;
  const addresses = await streetOrItsAddresses([], line.street, line.town, s, deps);
  if (addresses.length > 0)
    return answerWith('street', partOf([...line.street.groups, ...line.town.groups]), addresses, s, deps);
}

/**
 * fallback-locality: a coarser part names a postcode or a town: its imagery. A ZIP+4 code whose +4
 * part is unknown is its ZIP first ("Beverly Hills, CA 90210-1234" is the postcode 90210).
 */
export async function fallbackLocality(s: TextSearchState, deps: SearchSteps): Promise<StepAnswer | void> {
  const zip = withoutPlusFour(s.text, s.rest);
  if (zip) {
    const places = await placesOfPart(zip, POSTCODE, s, deps);
    if (places.length > 0) return answerWith('postcode', zip, places, s, deps);
  }
  for (const part of coarserParts(s.text, s.rest)) {
    const places = await placesOfPart(part, LOCALITY_KINDS, s, deps);
    if (places.length === 0 || (await longerPartNamesPlace(part, s, deps))) continue;
    return answerWith(places[0].kind === 'postcode' ? 'postcode' : 'locality', part, places, s, deps);
  }
}

/** fallback-region: the region the query names (namesRegionAfterAddressLine): the imagery nearest its place. */
export async function fallbackRegion(s: TextSearchState, deps: SearchSteps): Promise<StepAnswer | void> {
  const region = s.namedRegion!;
  const place = await deps.placeMatcher.regionPlace(region.code);
  if (!place) return;
  const page = await deps.repository.searchArea(s.window, surroundingsPlan(s.plan, place));
  const level: FallbackLevel = region.kind === 'country' ? 'country' : 'region';
  return {
    page,
    match: 'nearby',
    places: [place],
    corrections: [],
    fallback: { level, unmatched: s.text.words },
  };
}
