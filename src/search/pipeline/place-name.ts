import type { RankedPlace } from '../place-matching/place-ranking';
import { buildTextQuery, TextQuery } from '../query/text-query';
import { tokenize } from '../query/tokenize';
import { isRegionName } from '../query/named-region';
import { ALT_NAME_SEPARATOR } from '../../places/place-record';
import type { SearchSteps } from './text-search.steps';
import type { TextSearchState } from './text-search-state';

// The places these words name in a region, asked once per search: named-category asks whether the
// whole query is a place's name, and named-places then asks the same lookup again. The statement and
// the ranking depend only on the query, the region and the vocabulary (one per search).
export async function placesNamed(
  query: TextQuery,
  region: string | null,
  s: TextSearchState,
  { placeMatcher }: SearchSteps,
): Promise<RankedPlace[]> {
  const key = JSON.stringify([query, region]);
  const asked = s.lookups.places.get(key);
  if (asked) return asked;
  const places = placeMatcher.named(query, region, s.vocabulary);
  s.lookups.places.set(key, places);
  return places;
}

// Whether the words are exactly the name of a place (of that kind, when given) in the region searched;
// with `otherNames`, or one of its other names that is no region's or country's ("Vaduz Castle", the
// English name of Schloss Vaduz: a place's name, not the category castle in Vaduz); with
// `minImportance`, of a place at least that important.
export async function isPlaceName(
  words: string,
  s: TextSearchState,
  deps: SearchSteps,
  kind?: string,
  { otherNames = false, minImportance = 0 } = {},
): Promise<boolean> {
  const query = buildTextQuery(words);
  if (!query) return false;
  const places = await placesNamed(query, s.region, s, deps);
  return places.some(
    (p) =>
      (kind === undefined || p.kind === kind) && p.importance >= minImportance && isNameOf(p, query.words, otherNames),
  );
}

/** Whether the words are the place's name, or (`otherNames`) one of its other names that is no region's or country's. */
export function isNameOf(place: RankedPlace, words: readonly string[], otherNames: boolean): boolean {
  const key = words.join(' ');
  const names = otherNames
    ? [place.name, ...place.altNames.split(ALT_NAME_SEPARATOR).filter((n) => !isRegionName(n))]
    : [place.name];
  return names.some((n) => tokenize(n).join(' ') === key);
}
