import { formatDistance, radiusToReach } from './search-state';

export interface EmptyStateElements {
  emptyTitle: HTMLElement;
  emptyHint: HTMLElement;
  emptyClear: HTMLButtonElement;
  emptyWiden: HTMLButtonElement;
}

export interface NothingWithin {
  /** The radius searched around the query's point. */
  radiusM: number;
  /** The API's interpretation.nearest: the nearest imagery the filters let through, or null. */
  nearest: { distance_m: number } | null;
  /** The search as the status line names it ("“34.07, -118.40”"). */
  what: string;
  filtered: boolean;
}

// A coordinate search that found nothing within its radius: "Nearest imagery is 402 m away", and a
// button that widens the radius just enough to take it in (within the API's 50 km). Returns the
// status line's text.
export function showNearestOffer(
  ui: EmptyStateElements,
  { radiusM, nearest, what, filtered }: NothingWithin,
  onWiden: (radiusM: number) => void,
): string {
  ui.emptyTitle.textContent = `No imagery within ${formatDistance(radiusM)} of ${what}`;
  const widenTo = nearest ? radiusToReach(nearest.distance_m) : undefined;
  if (!nearest)
    ui.emptyHint.textContent = filtered
      ? 'No imagery nearby passes the filters. Try fewer filters.'
      : 'There is no imagery nearby.';
  else
    ui.emptyHint.textContent = `Nearest imagery is ${formatDistance(nearest.distance_m)} away${widenTo ? '.' : ', farther than the largest radius (50 km).'}`;
  ui.emptyClear.hidden = !filtered;
  ui.emptyWiden.hidden = widenTo === undefined;
  if (widenTo !== undefined) {
    ui.emptyWiden.textContent = `Search within ${formatDistance(widenTo)}`;
    ui.emptyWiden.onclick = () => onWiden(widenTo);
  }
  return `${ui.emptyTitle.textContent}. ${ui.emptyHint.textContent}`;
}
