import { buildTextQuery, tokenize } from '../search-query';
import type { SearchSteps } from './text-search.steps';
import type { TextSearchState } from './text-search-state';

// Whether the words are exactly the name of a place (of that kind, when given) in the region searched.
export async function isPlaceName(
  words: string,
  s: TextSearchState,
  { repository, placeMatcher }: SearchSteps,
  kind?: string,
): Promise<boolean> {
  const query = buildTextQuery(words);
  if (!query) return false;
  s.vocabulary ??= await repository.vocabulary();
  const places = await placeMatcher.named(query, s.region, s.vocabulary);
  const key = query.words.join(' ');
  return places.some((p) => (kind === undefined || p.kind === kind) && tokenize(p.name).join(' ') === key);
}
