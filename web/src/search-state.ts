// The page's search as plain data, and its two encodings: the shareable URL and the API request body.
// No DOM here, so the rules are unit-tested without a browser (test/unit/web-search-state.spec.ts).

export const COMPASS_POINTS = ['N', 'NE', 'E', 'SE', 'S', 'SW', 'W', 'NW'] as const;
export type CompassPoint = (typeof COMPASS_POINTS)[number];

// The API's bounds (README "Bounds"; near.radius_m per the search filters).
export const QUERY_MAX_LENGTH = 256;
export const RESULT_WINDOW_MAX = 10_000;
export const RADIUS_MIN_M = 1;
export const RADIUS_MAX_M = 50_000;
export const PAGE_SIZE = 10;
export const SUGGESTION_LIMIT = 5;

export interface Near {
  lat: number;
  lon: number;
  radiusM: number;
}

export interface Filters {
  capturedAfter?: string;
  capturedBefore?: string;
  interactive?: boolean;
  facing?: CompassPoint;
  near?: Near;
  /** The radius around coordinates typed as the query (the API's near: { radius_m } alone); not with near. */
  queryRadiusM?: number;
  /** ISO 3166-1 alpha-2 ("LI") or ISO 3166-2 first-level region ("US-CA"), upper case. */
  region?: string;
}

export interface SearchState {
  query: string;
  page: number;
  filters: Filters;
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

export function isCalendarDate(value: string): boolean {
  if (!ISO_DATE.test(value)) return false;
  const [y, m, d] = value.split('-').map(Number);
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

// The API's shape of a region code; whether it names a real region is checked against the lists.
const REGION_CODE = /^[A-Z]{2}(-[A-Z0-9]{1,3})?$/;

export function regionCodeOf(value: string | null | undefined): string | undefined {
  const code = value?.trim().toUpperCase();
  return code && REGION_CODE.test(code) ? code : undefined;
}

/** "US-CA" -> "US"; "LI" -> "LI". */
export function countryOf(region: string): string {
  return region.slice(0, 2);
}

export function isCompassPoint(value: string): value is CompassPoint {
  return (COMPASS_POINTS as readonly string[]).includes(value);
}

// Largest page the API serves for this page size (page * limit <= 10,000).
export function lastReachablePage(pageTotal: number, limit = PAGE_SIZE): number {
  return Math.min(pageTotal, Math.floor(RESULT_WINDOW_MAX / limit));
}

// A shared or hand-edited URL may hold anything: keep what is valid, drop the rest.
export function stateFromUrl(search: string): SearchState {
  const p = new URLSearchParams(search);
  const filters: Filters = {};
  const after = p.get('captured_after');
  if (after && isCalendarDate(after)) filters.capturedAfter = after;
  const before = p.get('captured_before');
  if (before && isCalendarDate(before)) filters.capturedBefore = before;
  const interactive = p.get('interactive');
  if (interactive === 'true' || interactive === 'false') filters.interactive = interactive === 'true';
  const facing = p.get('facing')?.toUpperCase();
  if (facing && isCompassPoint(facing)) filters.facing = facing;
  const near = parseNear(p.get('near'), p.get('radius_m'));
  if (near) filters.near = near;
  else if (!p.has('near')) {
    const radius = parseRadius(p.get('radius_m'));
    if (radius !== undefined) filters.queryRadiusM = radius;
  }
  const region = regionCodeOf(p.get('region'));
  if (region) filters.region = region;
  const pageNumber = Number(p.get('page'));
  const page = Number.isInteger(pageNumber) && pageNumber >= 1 ? Math.min(pageNumber, lastReachablePage(Infinity)) : 1;
  return { query: (p.get('query') ?? '').trim().slice(0, QUERY_MAX_LENGTH), page, filters };
}

function parseNear(near: string | null, radius: string | null): Near | undefined {
  const m = near ? /^(-?\d+(?:\.\d+)?),(-?\d+(?:\.\d+)?)$/.exec(near) : null;
  if (!m) return undefined;
  const lat = Number(m[1]);
  const lon = Number(m[2]);
  if (lat < -90 || lat > 90 || lon < -180 || lon > 180) return undefined;
  return { lat, lon, radiusM: parseRadius(radius) ?? 1000 };
}

function parseRadius(radius: string | null): number | undefined {
  const r = radius === null || radius.trim() === '' ? NaN : Number(radius);
  return Number.isFinite(r) ? Math.min(RADIUS_MAX_M, Math.max(RADIUS_MIN_M, Math.round(r))) : undefined;
}

// Same fields as the API, so a URL reads like the request it makes.
export function stateToUrl(state: SearchState): string {
  const p = new URLSearchParams();
  if (state.query) p.set('query', state.query);
  const f = state.filters;
  if (f.capturedAfter) p.set('captured_after', f.capturedAfter);
  if (f.capturedBefore) p.set('captured_before', f.capturedBefore);
  if (f.interactive !== undefined) p.set('interactive', String(f.interactive));
  if (f.facing) p.set('facing', f.facing);
  if (f.near) {
    p.set('near', `${roundCoord(f.near.lat)},${roundCoord(f.near.lon)}`);
    p.set('radius_m', String(f.near.radiusM));
  } else if (f.queryRadiusM !== undefined) {
    p.set('radius_m', String(f.queryRadiusM));
  }
  if (f.region) p.set('region', f.region);
  if (state.page > 1) p.set('page', String(state.page));
  const text = p.toString();
  return text ? `?${text}` : '';
}

// 5 decimals is about a metre: precise enough to share, short enough to read.
export function roundCoord(value: number): number {
  return Math.round(value * 1e5) / 1e5;
}

export function hasSearch(state: SearchState): boolean {
  return state.query.length > 0 || state.filters.near !== undefined;
}

// Another query: a radius widened for the coordinates typed before does not carry over (the API
// refuses a radius without a point for text).
export function withQuery(state: SearchState, query: string): SearchState {
  const { queryRadiusM: _dropped, ...filters } = state.filters;
  return { ...state, query, page: 1, filters: query === state.query ? state.filters : filters };
}

// The radius the page offers to widen a coordinate search to so that it takes in imagery that far
// away: the next 10 m above it, or undefined past the API's largest radius.
export function radiusToReach(distanceM: number): number | undefined {
  const radius = Math.max(RADIUS_MIN_M, Math.ceil((distanceM + 1) / 10) * 10);
  return radius <= RADIUS_MAX_M ? radius : undefined;
}

// "402 m", "2.4 km", "120 km".
export function formatDistance(m: number): string {
  if (Math.round(m) < 1000) return `${Math.round(m)} m`;
  return `${(m / 1000).toLocaleString('en-US', { maximumFractionDigits: 1 })} km`;
}

// The radius a search asks for is not a filter the panel shows: not counted.
export function activeFilterCount(filters: Filters): number {
  return [
    filters.capturedAfter,
    filters.capturedBefore,
    filters.interactive,
    filters.facing,
    filters.near,
    filters.region,
  ].filter((v) => v !== undefined).length;
}

export interface SearchRequestBody {
  query?: string;
  limit: number;
  page: number;
  captured_after?: string;
  captured_before?: string;
  interactive?: boolean;
  facing?: CompassPoint;
  near?: { lat: number; lon: number; radius_m: number } | { radius_m: number };
  region?: string;
  include?: IncludeName[];
}

// The opt-in fields the page asks for: the place each result belongs to, how the query was read (for
// coordinates with nothing within the radius, how far the nearest imagery is; for text, what was
// searched when it was not the words as typed), and how each result matched (approximate ones are marked).
export type IncludeName = 'place' | 'interpretation' | 'match';
export const RESULT_INCLUDES: readonly IncludeName[] = ['place', 'interpretation', 'match'];

// Only the fields in use are sent: the API rejects unknown or null fields.
export function requestBody(
  state: SearchState,
  limit = PAGE_SIZE,
  include: readonly IncludeName[] = [],
): SearchRequestBody {
  const f = state.filters;
  const body: SearchRequestBody = { limit, page: state.page };
  if (state.query) body.query = state.query;
  if (f.capturedAfter) body.captured_after = f.capturedAfter;
  if (f.capturedBefore) body.captured_before = f.capturedBefore;
  if (f.interactive !== undefined) body.interactive = f.interactive;
  if (f.facing) body.facing = f.facing;
  if (f.near) body.near = { lat: roundCoord(f.near.lat), lon: roundCoord(f.near.lon), radius_m: f.near.radiusM };
  else if (f.queryRadiusM !== undefined) body.near = { radius_m: f.queryRadiusM };
  if (f.region) body.region = f.region;
  if (include.length > 0) body.include = [...include];
  return body;
}

const HEADINGS: Record<CompassPoint, number> = { N: 0, NE: 45, E: 90, SE: 135, S: 180, SW: 225, W: 270, NW: 315 };

// "Facing West (W)" -> 270: the record's 8-point heading, for arrows and view cones.
export function headingOf(compass: string): number | null {
  const abbr = /\(([NESW]{1,2})\)\s*$/.exec(compass)?.[1];
  return abbr && isCompassPoint(abbr) ? HEADINGS[abbr] : null;
}

// Demo images and photos' images are served by this service; when IMAGE_BASE_URL was left at its
// localhost default and the page is opened from another host, load them from the page's own origin.
// Other URLs are kept as given.
export function displayImageUrl(image: string, pageOrigin: string): string {
  let url: URL;
  try {
    url = new URL(image, pageOrigin);
  } catch {
    return image;
  }
  const local = url.hostname === 'localhost' || url.hostname === '127.0.0.1' || url.hostname === '[::1]';
  if (local && url.origin !== pageOrigin && /^\/(demo-images|images)\//.test(url.pathname)) {
    return `${pageOrigin}${url.pathname}`;
  }
  return url.href;
}
