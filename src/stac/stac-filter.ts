import { invalidParameter } from './stac.exception';

// The filter extension's Basic CQL2 over this catalogue's queryables, as one tree whichever language
// it came in (CQL2 JSON here, CQL2 text in stac-filter-text.ts): comparisons, AND, OR, NOT, IS NULL.
export type Comparison = '=' | '<>' | '<' | '<=' | '>' | '>=';
export type Queryable = 'datetime' | 'view:azimuth' | 'interactive' | 'collection';
/** A timestamp as epoch milliseconds (datetime); a number (view:azimuth); a boolean; a string (collection). */
export type Literal = number | boolean | string | { timestamp: number };

export type Filter =
  | { op: 'and' | 'or'; args: Filter[] }
  | { op: 'not'; arg: Filter }
  | { op: Comparison; property: Queryable; value: Literal }
  | { op: 'isNull'; property: Queryable };

export const COMPARISONS: Comparison[] = ['=', '<>', '<', '<=', '>', '>='];
// `source` is the record's own name for the collection.
export const QUERYABLES: Record<string, Queryable> = {
  datetime: 'datetime',
  'view:azimuth': 'view:azimuth',
  interactive: 'interactive',
  collection: 'collection',
  source: 'collection',
};
const MAX_DEPTH = 16;
const MAX_NODES = 200;

// A property and a literal, checked against the property's type.
export function comparison(op: Comparison, name: string, value: unknown): Filter {
  const property = queryable(name);
  const literal = literalFor(property, value);
  if (property === 'interactive' && op !== '=' && op !== '<>') {
    throw invalidParameter('filter', 'compares interactive (a boolean) only with = and <>');
  }
  return { op, property, value: literal };
}

export function queryable(name: string): Queryable {
  const property = Object.hasOwn(QUERYABLES, name) ? QUERYABLES[name] : undefined;
  if (!property) {
    throw invalidParameter('filter', `names ${name}, which is not a queryable (${Object.keys(QUERYABLES).join(', ')})`);
  }
  return property;
}

function literalFor(property: Queryable, value: unknown): Literal {
  const ok =
    (property === 'view:azimuth' && typeof value === 'number' && Number.isFinite(value)) ||
    (property === 'interactive' && typeof value === 'boolean') ||
    (property === 'collection' && typeof value === 'string' && value.length <= 256) ||
    (property === 'datetime' && typeof value === 'object' && value !== null && 'timestamp' in value);
  if (!ok) throw invalidParameter('filter', `compares ${property} with a value of the wrong type`);
  return value as Literal;
}

// TIMESTAMP('...') in text, {"timestamp": "..."} in JSON; DATE('...') and {"date": "..."} are that day's 00:00 UTC.
export function instant(kind: 'timestamp' | 'date', text: unknown): { timestamp: number } {
  const shape =
    kind === 'date'
      ? /^\d{4}-\d{2}-\d{2}$/
      : /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?(?:Z|[+-]\d{2}:\d{2})$/i;
  const ms =
    typeof text === 'string' && shape.test(text) ? Date.parse(kind === 'date' ? `${text}T00:00:00Z` : text) : NaN;
  if (Number.isNaN(ms))
    throw invalidParameter('filter', `has a ${kind} that is not RFC 3339: ${String(text).slice(0, 40)}`);
  return { timestamp: ms };
}

// CQL2 JSON: {"op": "and", "args": [{"op": "=", "args": [{"property": "interactive"}, true]}, ...]}.
export function filterFromJson(value: unknown, count = { nodes: 0 }, depth = 0): Filter {
  if (++count.nodes > MAX_NODES || depth > MAX_DEPTH) {
    throw invalidParameter('filter', `must have at most ${MAX_NODES} terms, ${MAX_DEPTH} levels deep`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw invalidParameter('filter', 'must be a CQL2 JSON expression {op, args}');
  }
  const { op, args } = value as { op?: unknown; args?: unknown };
  if (typeof op !== 'string' || !Array.isArray(args)) {
    throw invalidParameter('filter', 'must be a CQL2 JSON expression {op, args}');
  }
  const name = op.toLowerCase();
  if ((name === 'and' || name === 'or') && args.length >= 2) {
    return { op: name, args: args.map((a) => filterFromJson(a, count, depth + 1)) };
  }
  if (name === 'not' && args.length === 1) return { op: 'not', arg: filterFromJson(args[0], count, depth + 1) };
  if (name === 'isnull' && args.length === 1) return { op: 'isNull', property: queryable(propertyName(args[0])) };
  if ((COMPARISONS as string[]).includes(name) && args.length === 2) {
    return comparison(name as Comparison, propertyName(args[0]), jsonLiteral(args[1]));
  }
  throw invalidParameter(
    'filter',
    `uses ${op.slice(0, 20)} with ${args.length} arguments, which Basic CQL2 here has not`,
  );
}

function propertyName(arg: unknown): string {
  const name = (arg as { property?: unknown } | null)?.property;
  if (typeof name !== 'string') throw invalidParameter('filter', 'must compare a {"property": ...} with a value');
  return name;
}

function jsonLiteral(arg: unknown): unknown {
  if (arg !== null && typeof arg === 'object' && !Array.isArray(arg)) {
    const { timestamp, date } = arg as { timestamp?: unknown; date?: unknown };
    if (timestamp !== undefined) return instant('timestamp', timestamp);
    if (date !== undefined) return instant('date', date);
  }
  return arg;
}
