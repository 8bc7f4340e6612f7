import { encodeCursor } from './stac-cursor';
import { GEOJSON_TYPE, StacLink, withParameters } from './stac-links';
import type { SearchOrigin, StacSearch } from './stac-search-parameters';

interface KeyedRow {
  captured_at: string;
  id: string;
}

export interface PagedRows<R extends KeyedRow> {
  rows: R[];
  /** The page's `next` and `prev` links, where such a page exists. */
  links: StacLink[];
}

// A page's rows from the limit + 1 the statement read, and its links to the pages around it. The one
// row more says a page lies beyond in the direction read: after the page (a first or `next` page) or
// before it (a `prev` page, read backwards). The other side is known from the token: a page reached by
// a `next` link has one before it, a page reached by a `prev` link one after it.
export function pagedRows<R extends KeyedRow>(
  read: R[],
  search: StacSearch,
  request: { origin: SearchOrigin; query: Record<string, string> },
  self: string,
): PagedRows<R> {
  const backward = search.cursor?.before === true;
  const more = read.length > search.limit;
  const rows = backward && more ? read.slice(read.length - search.limit) : read.slice(0, search.limit);
  const hasNext = backward ? rows.length > 0 : more;
  const hasPrev = backward ? more : search.cursor !== undefined && rows.length > 0;
  const link = (rel: 'next' | 'prev', row: R): StacLink => {
    const token = encodeCursor({
      direction: search.direction,
      capturedAt: row.captured_at,
      id: row.id,
      ...(rel === 'prev' ? { before: true } : {}),
    });
    return request.origin === 'query'
      ? { rel, href: withParameters(self, request.query, { token }), type: GEOJSON_TYPE, method: 'GET' }
      : { rel, href: self, type: GEOJSON_TYPE, method: 'POST', body: { token }, merge: true };
  };
  const links: StacLink[] = [];
  if (hasNext) links.push(link('next', rows[rows.length - 1]));
  if (hasPrev) links.push(link('prev', rows[0]));
  return { rows, links };
}
