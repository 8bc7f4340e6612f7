import { LatLon } from './coordinates';
import { QueryInterpretation } from './query-interpretation';
import { COMPASS_POINTS, SortOrder } from './search-filters.dto';
import { SearchRequestDto } from './search.dto';
import { SearchException, SearchExceptionCode } from './search.exception';

export interface Circle extends LatLon {
  radiusM: number;
}

// Headings from `from` up to `to`; from > to wraps through north (337.5..22.5 is "N").
export interface HeadingWindow {
  from: number;
  to: number;
  toInclusive: boolean;
}

export interface SearchFilters {
  /** Every circle must contain the image (query point, near, looking_at). */
  circles: Circle[];
  /** west > east crosses the antimeridian. */
  bbox?: { west: number; south: number; east: number; north: number };
  capturedAfter?: string;
  capturedBefore?: string;
  interactive?: boolean;
  heading?: HeadingWindow;
  lookingAt?: LatLon & { halfFovDeg: number };
}

export interface SearchPlan {
  filters: SearchFilters;
  sort: SortOrder;
  /** The point distances are measured from, with the radius searched around it. */
  anchor: Circle | null;
}

export const NO_FILTERS: SearchPlan = { filters: { circles: [] }, sort: 'relevance', anchor: null };

// The filters, sort and anchor point of a validated request whose query has been interpreted.
// `scope` is what result_id identifies besides the query and limit.
export function planSearch(
  request: SearchRequestDto,
  interpretation: QueryInterpretation | null,
): { plan: SearchPlan; scope: { filters: Record<string, unknown>; sort?: SortOrder } } {
  const filters: SearchFilters = { circles: [] };
  const queryPoint = interpretation && interpretation.kind !== 'text' ? { ...interpretation.point, radiusM: interpretation.radiusM } : null;
  const near = request.near ? { lat: request.near.lat, lon: request.near.lon, radiusM: request.near.radius_m } : null;
  const target = request.looking_at
    ? { lat: request.looking_at.lat, lon: request.looking_at.lon, radiusM: request.looking_at.radius_m }
    : null;

  for (const circle of [queryPoint, near, target]) if (circle) filters.circles.push(circle);
  if (request.bbox) {
    const [west, south, east, north] = request.bbox;
    filters.bbox = { west, south, east, north };
  }
  if (request.captured_after !== undefined) filters.capturedAfter = request.captured_after;
  if (request.captured_before !== undefined) filters.capturedBefore = request.captured_before;
  if (request.interactive !== undefined) filters.interactive = request.interactive;
  if (request.facing !== undefined) filters.heading = sectorWindow(request.facing);
  if (request.heading !== undefined) filters.heading = rangeWindow(request.heading.min, request.heading.max);
  if (request.looking_at && request.looking_at.fov_deg < 360) {
    filters.lookingAt = { lat: request.looking_at.lat, lon: request.looking_at.lon, halfFovDeg: request.looking_at.fov_deg / 2 };
  }

  const anchor = queryPoint ?? near ?? target;
  const hasText = interpretation?.kind === 'text';
  const defaultSort: SortOrder = hasText ? 'relevance' : anchor ? 'distance' : 'newest';
  const sort = resolveSort(request.sort ?? defaultSort, hasText, interpretation !== null, anchor !== null);
  return { plan: { filters, sort, anchor }, scope: { filters: scopeOf(request), sort: sort === defaultSort ? undefined : sort } };
}

function resolveSort(requested: SortOrder, hasText: boolean, hasQuery: boolean, hasPoint: boolean): SortOrder {
  if (requested === 'relevance' && !hasText) {
    // A coordinate or plus-code query is most relevant where it is closest.
    if (hasQuery) return 'distance';
    throw new SearchException(SearchExceptionCode.INVALID_SORT, 'sort', 'sort relevance needs a query; use distance, newest or oldest');
  }
  if (requested === 'distance' && !hasPoint) {
    throw new SearchException(
      SearchExceptionCode.INVALID_SORT,
      'sort',
      'sort distance needs a point: coordinates or a plus code as query, near, or looking_at',
    );
  }
  return requested;
}

// The 8-point rose of the response's `compass`: each sector 45 degrees centred on its direction.
export function sectorWindow(facing: (typeof COMPASS_POINTS)[number]): HeadingWindow {
  const centre = COMPASS_POINTS.indexOf(facing) * 45;
  return { from: (centre - 22.5 + 360) % 360, to: (centre + 22.5) % 360, toInclusive: false };
}

// Both ends inclusive; 360 means north like 0, except as the end of a range that starts lower.
export function rangeWindow(min: number, max: number): HeadingWindow {
  const from = min % 360;
  const to = max === 360 && min !== 360 ? 360 : max % 360;
  return { from, to, toInclusive: true };
}

const SCOPE_FIELDS = ['near', 'bbox', 'captured_after', 'captured_before', 'interactive', 'facing', 'heading', 'looking_at'] as const;

// The request's filters with defaults applied, as plain data.
function scopeOf(request: SearchRequestDto): Record<string, unknown> {
  const scope: Record<string, unknown> = {};
  for (const field of SCOPE_FIELDS) {
    const value = request[field];
    if (value !== undefined) scope[field] = typeof value === 'object' && !Array.isArray(value) ? { ...value } : value;
  }
  return scope;
}
