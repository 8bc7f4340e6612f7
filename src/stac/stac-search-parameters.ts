import { QUERY_MAX_LENGTH } from '../search/dto/search-request.dto';
import { Cursor, decodeCursor, SortDirection } from './stac-cursor';
import { CaptureDateRange, parseDatetime } from './stac-datetime';
import { FieldsRule, parseFields } from './stac-fields';
import { Filter, filterFromJson } from './stac-filter';
import { filterFromText } from './stac-filter-text';
import { Bbox, Geometry, parseBbox, parseIntersects } from './stac-geometry';
import { invalidParameter } from './stac.exception';
import { UUID } from '../common/uuid';

// An item search as the repository runs it, read from GET query parameters (strings) or a POST body
// (JSON). Every parameter is checked here; a bad one is a 400 naming it.
export interface StacSearch {
  bbox?: Bbox;
  intersects?: Geometry;
  dates: CaptureDateRange;
  /** Record ids; an id that is no UUID can name no record and is dropped (an empty list matches nothing). */
  ids?: string[];
  /** Collection ids: sources, and `unsourced` for the records without one (stac-collection-id.ts). */
  collections?: string[];
  /** Free text, read by POST /search's own search (stac-free-text.ts). */
  q?: string;
  limit: number;
  direction: SortDirection;
  /** The token's key: the page starts after it (or ends before it, for a prev token). */
  cursor?: Cursor;
  /** The fields extension: which members of each item to return. */
  fields?: FieldsRule;
  /** The filter extension: Basic CQL2 over the queryables. */
  filter?: Filter;
}

export const LIMIT_DEFAULT = 10;
// The advertised maximum: a larger limit is read as this one (the specification's rule), never refused.
export const LIMIT_MAX = 1000;
const LIST_MAX = 256;
const ID_MAX_LENGTH = 256;

export const SEARCH_PARAMETERS = [
  'bbox',
  'intersects',
  'datetime',
  'ids',
  'collections',
  'q',
  'limit',
  'token',
  'sortby',
  'fields',
  'filter',
  'filter-lang',
  'filter-crs',
];
// /stac/collections/{id}/items: the collection is the path's; no ids or geometry (OGC API Features).
export const ITEMS_PARAMETERS = [
  'bbox',
  'datetime',
  'limit',
  'token',
  'sortby',
  'fields',
  'filter',
  'filter-lang',
  'filter-crs',
];

export type SearchOrigin = 'query' | 'body';

export function parseSearch(raw: Record<string, unknown>, origin: SearchOrigin, allowed: string[]): StacSearch {
  for (const [name, value] of Object.entries(raw)) {
    if (!allowed.includes(name)) throw invalidParameter(shortName(name), `is not a parameter of this request`);
    if (origin === 'query' && typeof value !== 'string') throw invalidParameter(name, 'must be given once');
  }
  if (raw.bbox !== undefined && raw.intersects !== undefined) {
    throw invalidParameter('intersects', 'must not be given together with bbox');
  }
  const direction = raw.sortby === undefined ? 'desc' : parseSortby(raw.sortby);
  return {
    bbox: raw.bbox === undefined ? undefined : parseBbox(raw.bbox),
    intersects: raw.intersects === undefined ? undefined : parseIntersects(raw.intersects),
    dates: raw.datetime === undefined ? {} : parseDatetime(raw.datetime),
    ids:
      raw.ids === undefined
        ? undefined
        : parseList('ids', raw.ids)
            .filter((id) => UUID.test(id))
            .map(lower),
    collections: raw.collections === undefined ? undefined : parseList('collections', raw.collections),
    q: raw.q === undefined ? undefined : parseQ(raw.q),
    limit: raw.limit === undefined ? LIMIT_DEFAULT : parseLimit(raw.limit, origin),
    direction,
    cursor: raw.token === undefined ? undefined : decodeCursor(raw.token, direction),
    fields: raw.fields === undefined ? undefined : parseFields(raw.fields),
    filter:
      raw.filter === undefined ? undefined : parseFilter(raw.filter, raw['filter-lang'], raw['filter-crs'], origin),
  };
}

function parseLimit(value: unknown, origin: SearchOrigin): number {
  const n = origin === 'query' && typeof value === 'string' && /^\d{1,15}$/.test(value) ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 1) {
    throw invalidParameter('limit', 'must be a positive integer');
  }
  return Math.min(n, LIMIT_MAX);
}

// `filter` in CQL2 text (a GET's default) or CQL2 JSON (a POST's), as `filter-lang` says; the only CRS is CRS84.
const CRS84 = 'http://www.opengis.net/def/crs/OGC/1.3/CRS84';

function parseFilter(value: unknown, lang: unknown, crs: unknown, origin: SearchOrigin): Filter {
  if (crs !== undefined && crs !== CRS84) throw invalidParameter('filter-crs', `must be ${CRS84}`);
  const language = lang ?? (origin === 'query' ? 'cql2-text' : 'cql2-json');
  if (language === 'cql2-text') {
    if (typeof value !== 'string') throw invalidParameter('filter', 'must be CQL2 text (a string)');
    return filterFromText(value);
  }
  if (language !== 'cql2-json') throw invalidParameter('filter-lang', 'must be cql2-text or cql2-json');
  if (typeof value !== 'string') return filterFromJson(value);
  try {
    return filterFromJson(JSON.parse(value));
  } catch (error) {
    if (error instanceof SyntaxError) throw invalidParameter('filter', 'must be CQL2 JSON');
    throw error;
  }
}

// C0/C1 control characters become spaces, as POST /search's query (QUERY_MAX_LENGTH is its bound too).
function parseQ(value: unknown): string {
  const text = typeof value === 'string' ? value.replace(/\p{Cc}/gu, ' ').trim() : '';
  if (text.length === 0 || text.length > QUERY_MAX_LENGTH) {
    throw invalidParameter('q', `must be text of 1 to ${QUERY_MAX_LENGTH} characters`);
  }
  return text;
}

// A comma-separated list in a query string, an array of strings in a body.
function parseList(name: string, value: unknown): string[] {
  const list = typeof value === 'string' ? value.split(',') : value;
  if (!Array.isArray(list) || list.length === 0 || list.length > LIST_MAX) {
    throw invalidParameter(name, `must be a list of 1 to ${LIST_MAX} strings`);
  }
  if (!list.every((v) => typeof v === 'string' && v.length > 0 && v.length <= ID_MAX_LENGTH)) {
    throw invalidParameter(name, `must hold strings of 1 to ${ID_MAX_LENGTH} characters`);
  }
  return list as string[];
}

// The sort extension, on the one field it sorts by: `datetime` (or `properties.datetime`), either way.
const SORT_FIELDS = new Set(['datetime', 'properties.datetime']);
const SORT_RULE = 'must sort by datetime: `datetime`, `+datetime` or `-datetime` ({field, direction} in a body)';

function parseSortby(value: unknown): SortDirection {
  if (typeof value === 'string') {
    // `+` arrives as a space when a client does not escape it in a query string.
    const m = /^([+ -]?)([a-z.]{1,32})$/.exec(value);
    if (!m || !SORT_FIELDS.has(m[2])) throw invalidParameter('sortby', SORT_RULE);
    return m[1] === '-' ? 'desc' : 'asc';
  }
  if (!Array.isArray(value) || value.length !== 1) throw invalidParameter('sortby', SORT_RULE);
  const [{ field, direction }] = value as Array<{ field?: unknown; direction?: unknown }>;
  if (typeof field !== 'string' || !SORT_FIELDS.has(field) || (direction !== 'asc' && direction !== 'desc')) {
    throw invalidParameter('sortby', SORT_RULE);
  }
  return direction;
}

const lower = (id: string) => id.toLowerCase();
const shortName = (name: string) => (name.length > 64 ? `${name.slice(0, 64)}…` : name);
