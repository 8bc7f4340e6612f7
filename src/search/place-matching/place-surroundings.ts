import type { PlaceKind } from '../../places/place-record';
import type { Circle, SearchPlan } from '../planning/search-planner';
import type { RankedPlace } from './place-ranking';

// How far from a place its surroundings reach, by kind: used when a query names a place that has no
// imagery of its own (a village nobody has photographed, an address between two captures), so the
// answer is the imagery nearest to it rather than nothing. Wide enough to reach the next street or
// village, narrow enough that what comes back still shows that place's area. Documented in docs/places.md.
export const SURROUNDINGS_RADIUS_M: Record<PlaceKind, number> = {
  address: 150,
  poi: 250,
  street: 500,
  postcode: 3_000,
  locality: 10_000,
  region: 50_000,
  country: 100_000,
};

export function surroundingsOf(place: RankedPlace): Circle {
  const radiusM = SURROUNDINGS_RADIUS_M[place.kind as PlaceKind] ?? SURROUNDINGS_RADIUS_M.poi;
  return { lat: place.lat, lon: place.lon, radiusM };
}

// The request's own filters, within the place's surroundings, nearest first unless a sort was asked for.
export function surroundingsPlan(plan: SearchPlan, place: RankedPlace): SearchPlan {
  const circle = surroundingsOf(place);
  return {
    filters: { ...plan.filters, circles: [...plan.filters.circles, circle] },
    sort: plan.sort === 'relevance' ? 'distance' : plan.sort,
    anchor: circle,
  };
}
