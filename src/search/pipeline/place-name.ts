import type { RankedPlace } from '../place-matching/place-ranking';
import { buildTextQuery, TextQuery } from '../query/text-query';
import { tokenize } from '../query/tokenize';
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

// Whether the words are exactly the name of a place (of that kind, when given) in the region searched.
export async function isPlaceName(
  words: string,
  s: TextSearchState,
  deps: SearchSteps,
  kind?: string,
): Promise<boolean> {
  const query = buildTextQuery(words);
  if (!query) return false;
  const places = await placesNamed(query, s.region, s, deps);
  const key = query.words.join(' ');
  return places.some((p) => (kind === undefined || p.kind === kind) && tokenize(p.name).join(' ') === key);
}
