import { surroundingsPlan } from '../place-matching/place-surroundings';
import { boundRegion } from '../query/named-region';
import { regionNamedAlone } from '../query/region-named-alone';
import { isPlaceName } from './place-name';
import { REGION_IMPORTANCE } from '../../places/gazetteer/place-importance';
import type { SearchSteps } from './text-search.steps';
import { StepAnswer, TextSearchState } from './text-search-state';

/**
 * The whole query is a country's or region's name or code ("Greenland", "DEU", "Texas"), within the
 * region the request asks for. A region's name that is also the name of a town as important as a
 * region (a city of about a million, place-importance.ts) is that town, not a region named alone;
 * a smaller town's is the region ("Virginia" is the state, not Virginia, Minnesota).
 */
export async function queryIsRegion(s: TextSearchState, deps: SearchSteps): Promise<boolean> {
  const named = regionNamedAlone(s.typed.text);
  if (named === undefined) return false;
  const asTown = { minImportance: REGION_IMPORTANCE };
  if (named.kind === 'region' && (await isPlaceName(s.typed.text, s, deps, 'locality', asTown))) return false;
  return boundRegion(s.plan.filters.region, named) !== null;
}

// A country named alone answers that country, not a town of a similar name ("Greenland" is not
// Greenland, New Hampshire): the imagery in it nearest its own place (the built-in gazetteer's, at
// its most populous town), within that place's surroundings, else its newest anywhere in it, else
// nothing (final: no lookalike elsewhere). The later steps run as before when the gazetteer has no
// place for it.
export async function namedRegionAlone(s: TextSearchState, deps: SearchSteps): Promise<StepAnswer | void> {
  const named = regionNamedAlone(s.typed.text)!;
  const region = boundRegion(s.plan.filters.region, named)!;
  const place = await deps.placeMatcher.regionPlace(named.code);
  if (!place) return;
  const plan = { ...s.plan, filters: { ...s.plan.filters, region } };
  let page = await deps.repository.searchArea(s.window, surroundingsPlan(plan, place));
  if (page.total === 0) page = await deps.repository.searchArea(s.window, { ...plan, sort: 'newest', anchor: null });
  return { page, match: 'nearby', places: [place], corrections: [] };
}
