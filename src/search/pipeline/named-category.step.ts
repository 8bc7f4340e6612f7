import { placeCoversQuery } from './query-believability';
import { surroundingsOf } from '../place-matching/place-surroundings';
import { RADIUS_DEFAULT_M } from '../search-filters.dto';
import { buildTextQuery, tokenize } from '../search-query';
import type { Circle } from '../search-filters';
import type { SearchSteps } from './text-search.steps';
import { categoryRead, StepAnswer, TextSearchState } from './text-search-state';

// Places a category word may be joined to without a connecting word ("Apotheke Vaduz"): areas. A
// street or an address after a category word is an address search ("Bank Street 5").
const AREA_KINDS = new Set(['locality', 'postcode', 'region', 'country']);

// The query names a category (category-query.ts): the imagery at its pois, within the region
// searched, around the place or point the rest of the query gives (the place's surroundings, see
// place-surroundings.ts; a point's radius is a coordinates query's), or anywhere when the category
// is the whole query. Nothing (the later steps run as before) when the rest names no place, the
// whole query is also a place's name, or the category has no poi with imagery there.
export async function namedCategory(s: TextSearchState, deps: SearchSteps): Promise<StepAnswer | void> {
  const read = categoryRead(s);
  if (!read) return;
  let around: Circle | null = null;
  if (read.point) around = { ...read.point, radiusM: RADIUS_DEFAULT_M };
  else {
    // The whole query: not when it is also the name of a place ("Spring" is a term of trampoline
    // parks and a town's name; a pub named "Wirtschaft", a post box named "Briefkasten"): a name
    // typed whole is that place before it is a category.
    const rest = buildTextQuery(read.rest || s.text.text);
    if (!rest) return;
    s.vocabulary ??= await deps.repository.vocabulary();
    const [place] = await deps.placeMatcher.named(rest, s.region, s.vocabulary);
    if (!read.rest) {
      if (place && tokenize(place.name).join(' ') === rest.words.join(' ')) return;
    } else {
      if (!place || !placeCoversQuery(rest, place) || (!read.connected && !AREA_KINDS.has(place.kind))) return;
      around = surroundingsOf(place);
    }
  }
  s.category = read;
  const country = s.region?.slice(0, 2) ?? null;
  const { page, pois } = await deps.placeMatcher.atCategory(read.tags, { around, country }, s.window, s.plan);
  return { page, match: 'nearby', places: pois, corrections: [] };
}
