import { RequestException, RequestExceptionCode } from '../../common/app-exception';
import { LatLon } from '../query/coordinates';
import { QueryInterpretation, round7 } from '../query/query-interpretation';
import { COMPASS_POINTS, SortOrder } from '../dto/search-filters.dto';
import { SearchRequestDto } from '../dto/search-request.dto';
import { SearchException, SearchExceptionCode } from '../search.exception';

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
  /** ISO 3166-1 alpha-2 ("LI") or ISO 3166-2 ("US-CA"), canonical upper case. */
  region?: string;
  /** Only the newest record of each spot and direction (sql/record-history.sql.ts). */
  newestPerSpot?: boolean;
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
  const { queryPoint, near, nearIsRadius } = pointCircles(request, interpretation);
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
  if (request.newest_per_spot) filters.newestPerSpot = true;
  if (request.facing !== undefined) filters.heading = sectorWindow(request.facing);
  if (request.heading !== undefined) filters.heading = rangeWindow(request.heading.min, request.heading.max);
  if (request.looking_at && request.looking_at.fov_deg < 360) {
    filters.lookingAt = {
      lat: request.looking_at.lat,
      lon: request.looking_at.lon,
      halfFovDeg: request.looking_at.fov_deg / 2,
    };
  }

  if (request.region !== undefined) filters.region = request.region.trim().toUpperCase();

  const anchor = queryPoint ?? near ?? target;
  const hasText = interpretation?.kind === 'text';
  const defaultSort: SortOrder = hasText ? 'relevance' : anchor ? 'distance' : 'newest';
  const sort = resolveSort(request.sort ?? defaultSort, hasText, interpretation !== null, anchor !== null);
  const scope = scopeOf(request);
  // Either way of giving the query's radius is the same search (the same result_id).
  if (nearIsRadius) scope.near = { radius_m: request.near!.radius_m };
  return { plan: { filters, sort, anchor }, scope: { filters: scope, sort: sort === defaultSort ? undefined : sort } };
}

// The circle around the query's point (coordinates or a plus code) and the `near` circle. `near`
// without a point, or at exactly the query's coordinates, only sets the radius around the query's
// point: one circle. `near` at another point than coordinates in the query is a contradiction (two
// circles that a client most likely did not mean) and is refused; with a plus code it stays a second
// circle, since a short code is recovered from it.
function pointCircles(
  request: SearchRequestDto,
  interpretation: QueryInterpretation | null,
): { queryPoint: Circle | null; near: Circle | null; nearIsRadius: boolean } {
  const point = interpretation && interpretation.kind !== 'text' ? interpretation : null;
  const near = request.near;
  if (!near)
    return { queryPoint: point && { ...point.point, radiusM: point.radiusM }, near: null, nearIsRadius: false };
  const hasPoint = near.lat !== undefined && near.lon !== undefined;
  if (!hasPoint && !point) {
    throw invalidNear(
      'near needs lat and lon unless query is coordinates or a plus code (then near: { radius_m } alone is the radius around it)',
    );
  }
  const samePoint =
    hasPoint &&
    point?.kind === 'coordinates' &&
    round7(near.lat!) === point.point.lat &&
    round7(near.lon!) === point.point.lon;
  if (point && (!hasPoint || samePoint))
    return { queryPoint: { ...point.point, radiusM: near.radius_m }, near: null, nearIsRadius: true };
  if (point?.kind === 'coordinates') {
    throw invalidNear(
      `near (${near.lat}, ${near.lon}) is another point than the coordinates in query (${point.normalized}); ` +
        "give near as { radius_m } alone to set the radius around the query's point, or leave the coordinates out of query",
    );
  }
  return {
    queryPoint: point && { ...point.point, radiusM: point.radiusM },
    near: { lat: near.lat!, lon: near.lon!, radiusM: near.radius_m },
    nearIsRadius: false,
  };
}

function invalidNear(message: string): RequestException {
  return new RequestException(RequestExceptionCode.INVALID_REQUEST, message, [{ field: 'near', message }]);
}

function resolveSort(requested: SortOrder, hasText: boolean, hasQuery: boolean, hasPoint: boolean): SortOrder {
  if (requested === 'relevance' && !hasText) {
    // A coordinate or plus-code query is most relevant where it is closest.
    if (hasQuery) return 'distance';
    throw new SearchException(
      SearchExceptionCode.INVALID_SORT,
      'sort',
      'sort relevance needs a query; use distance, newest or oldest',
    );
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

const SCOPE_FIELDS = [
  'near',
  'bbox',
  'captured_after',
  'captured_before',
  'interactive',
  'facing',
  'heading',
  'looking_at',
  'region',
  'newest_per_spot',
] as const;

// The request's filters with defaults applied, as plain data.
function scopeOf(request: SearchRequestDto): Record<string, unknown> {
  const scope: Record<string, unknown> = {};
  for (const field of SCOPE_FIELDS) {
    const value = request[field];
    if (value === undefined) continue;
    if (field === 'region') scope[field] = (value as string).trim().toUpperCase();
    else scope[field] = typeof value === 'object' && !Array.isArray(value) ? { ...value } : value;
  }
  return scope;
}
