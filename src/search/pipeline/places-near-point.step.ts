import { METRES_PER_DEGREE } from '../../common/earth';
import type { RankedPlace } from '../place-matching/place-ranking';
import type { Circle } from '../planning/search-planner';
import { StepLearnt, TextSearchState } from './text-search-state';

// A name searched near a point (`near`, or a name beside coordinates: query/name-near-point.ts)
// means the places of that name inside the circle: one of the same name elsewhere ("Kleiner Kanal"
// is two canals) has no imagery in it, and its surroundings are not the answer.

const inside = (place: RankedPlace, c: Circle) => {
  const dy = (place.lat - c.lat) * METRES_PER_DEGREE;
  const dx = (place.lon - c.lon) * METRES_PER_DEGREE * Math.cos((c.lat * Math.PI) / 180);
  return Math.hypot(dx, dy) <= c.radiusM;
};

/** The search keeps to a circle, and some place named lies outside it. */
export const placesOutsideCircle = (s: TextSearchState): boolean =>
  s.plan.filters.circles.length > 0 && s.places.some((p) => !s.plan.filters.circles.every((c) => inside(p, c)));

/** places-in-circle: the places named that lie in every circle searched, in their order. */
export async function placesInCircle(s: TextSearchState): Promise<StepLearnt> {
  return { learnt: { places: s.places.filter((p) => s.plan.filters.circles.every((c) => inside(p, c))) } };
}
