import { invalidParameter } from './stac.exception';

// The `token` of a `next` link: the sort key of the last item of the page, so the next page starts
// right after it (keyset paging on the (captured_at, id) btree); of a `prev` link, the key of the first
// item, marked `before`, so the previous page is the items just before it. Records imported or deleted while a
// client walks the pages move nothing: no item appears twice in one walk, and every item present for
// the whole walk is seen. The direction is part of the token, so a token is only read the way it was written.
export type SortDirection = 'asc' | 'desc';

export interface Cursor {
  direction: SortDirection;
  capturedAt: string;
  id: string;
  /** A `prev` link's token: the page is the items before the key, not after it. */
  before?: boolean;
}

const TOKEN = /^(asc|desc)(<?):(\d{4}-\d{2}-\d{2}):([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/;

export function encodeCursor(cursor: Cursor): string {
  const side = cursor.before ? '<' : '';
  return Buffer.from(`${cursor.direction}${side}:${cursor.capturedAt}:${cursor.id}`).toString('base64url');
}

export function decodeCursor(token: unknown, direction: SortDirection): Cursor {
  const m = typeof token === 'string' && token.length <= 200 ? TOKEN.exec(fromBase64Url(token)) : null;
  if (!m) throw invalidParameter('token', 'must be the token of a next or prev link this server wrote');
  if (m[1] !== direction) throw invalidParameter('token', 'belongs to a search sorted the other way');
  return { direction, capturedAt: m[3], id: m[4], ...(m[2] === '<' ? { before: true } : {}) };
}

function fromBase64Url(token: string): string {
  return /^[A-Za-z0-9_-]*$/.test(token) ? Buffer.from(token, 'base64url').toString('latin1') : '';
}
