import { v5 as uuidv5 } from 'uuid';
import { collapseWhitespace } from '../query/tokenize';

// Fixed namespace so result ids are stable across instances and restarts.
const RESULT_ID_NAMESPACE = '6f3b9d52-2d7e-4a8c-9a51-1f0c5b7e2a10';

// What a search is, besides its page: every page of one search shares the id. `scope` holds the
// filters and any sort other than the default for the request; without them the id is the same as
// for a plain query.
export function resultIdFor(
  request: { query?: string | null; limit: number },
  scope: { filters?: Record<string, unknown>; sort?: string } = {},
): string {
  const key: Record<string, unknown> = {
    q: request.query == null ? null : collapseWhitespace(request.query).toLowerCase(),
    limit: request.limit,
  };
  if (scope.filters && Object.keys(scope.filters).length > 0) key.f = canonical(scope.filters);
  if (scope.sort) key.s = scope.sort;
  return uuidv5(JSON.stringify(key), RESULT_ID_NAMESPACE);
}

// Same value, same JSON: object keys sorted at every level.
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value as object)
        .sort()
        .map((k) => [k, canonical((value as Record<string, unknown>)[k])]),
    );
  }
  return value;
}
