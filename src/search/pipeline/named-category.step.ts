import { placeCoversQuery } from './query-believability';
import { SURROUNDINGS_RADIUS_M, surroundingsOf } from '../place-matching/place-surroundings';
import { RADIUS_DEFAULT_M } from '../dto/search-filters.dto';
import { buildTextQuery } from '../query/text-query';
import type { CategoryArea } from '../sql/category-search.sql';
import { placesNamed } from './place-name';
import type { SearchSteps } from './text-search.steps';
import { categoryRead, StepAnswer, TextSearchState } from './text-search-state';

// Places a category word may be joined to without a connecting word ("Apotheke Vaduz"): areas. A
// street or an address after a category word is an address search ("Bank Street 5").
const AREA_KINDS = new Set(['locality', 'postcode', 'region', 'country']);

// The query names a category (category-query.ts; the condition, namesCategory, also asks that the
// whole query is no place's name nor one of its other names): the imagery at its pois, within the
// region searched, around the place or point the rest of the query gives (the place's surroundings,
// see place-surroundings.ts; a point's radius is a coordinates query's; a town's own pois first), or
// anywhere when the category is the whole query. A town no place is named but addresses and pois
// name (their addr:city) is where those lie, and its own pois are theirs. Nothing (the later steps
// run as before) when the rest names no place, or the category has no poi with imagery there.
export async function namedCategory(s: TextSearchState, deps: SearchSteps): Promise<StepAnswer | void> {
  const read = categoryRead(s)!;
  let where: Pick<CategoryArea, 'around' | 'town'> = { around: null, town: null };
  if (read.point) where = { around: { ...read.point, radiusM: RADIUS_DEFAULT_M }, town: null };
  else if (read.rest) {
    const found = await whereRestNames(read.rest, read.connected, s, deps);
    if (!found) return;
    where = found;
  }
  const country = s.region?.slice(0, 2) ?? null;
  const { page, pois } = await deps.placeMatcher.atCategory(read.tags, { ...where, country }, s.window, s.plan);
  return { page, match: 'nearby', places: pois, corrections: [], categories: read.tags };
}

// An aside in parentheses at the end of a town's name ("Balzers (FL)", as addresses in Liechtenstein
// write it with the country's sign): the name is looked up with it, then without it.
const ASIDE = /\s*\([^()]*\)\s*$/u;

// Where the rest of the query names whole (an area without a connecting word): a place's
// surroundings, or the town addresses name; null when it names neither.
async function whereRestNames(text: string, connected: boolean, s: TextSearchState, deps: SearchSteps) {
  const typed = ASIDE.test(text) ? [text, text.replace(ASIDE, '')] : [text];
  for (const spelling of typed) {
    const rest = buildTextQuery(spelling);
    if (!rest) continue;
    const [place] = await placesNamed(rest, s.region, s, deps);
    if (place && placeCoversQuery(rest, place) && (connected || AREA_KINDS.has(place.kind)))
      return { around: surroundingsOf(place), town: place.kind === 'locality' ? place.name : null };
  }
  for (const spelling of typed) {
    const rest = buildTextQuery(spelling);
    const town = rest && (await deps.placeMatcher.addressTown(rest, s.region));
    if (town)
      return { around: { lat: town.lat, lon: town.lon, radiusM: SURROUNDINGS_RADIUS_M.locality }, town: town.name };
  }
  return null;
}
