import { invalidParameter } from './stac.exception';

// The fields extension: which members of each item a search returns. `include` keeps only the named
// members (and `type` and `id`, without which a GeoJSON feature is none); `exclude` drops members;
// a member named in both is included. Names are dotted paths: `properties.title`, `assets.visual`.
export interface FieldsRule {
  include: string[];
  exclude: string[];
}

const NAME = /^[A-Za-z0-9_:-]{1,64}(?:\.[A-Za-z0-9_:-]{1,64}){0,3}$/;
const MAX_NAMES = 64;
const ALWAYS = ['type', 'id'];
const RULE = 'must list members to include or (with a leading -) exclude: `properties.title,-links`';

export function parseFields(value: unknown): FieldsRule {
  const rule: FieldsRule = { include: [], exclude: [] };
  if (typeof value === 'string') {
    for (const raw of value.split(',')) {
      const name = raw.trim();
      if (name === '') continue;
      // `+` arrives as a space when a client does not escape it.
      if (name.startsWith('-')) rule.exclude.push(name.slice(1));
      else rule.include.push(name.replace(/^\+/, ''));
    }
  } else if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const { include = [], exclude = [], ...other } = value as Record<string, unknown>;
    if (Object.keys(other).length > 0 || !Array.isArray(include) || !Array.isArray(exclude)) {
      throw invalidParameter('fields', 'must be {include: [...], exclude: [...]}');
    }
    rule.include = include as string[];
    rule.exclude = exclude as string[];
  } else {
    throw invalidParameter('fields', RULE);
  }
  const names = [...rule.include, ...rule.exclude];
  if (names.length > MAX_NAMES || !names.every((n) => typeof n === 'string' && NAME.test(n))) {
    throw invalidParameter('fields', RULE);
  }
  return rule;
}

export function applyFields(item: Record<string, unknown>, rule: FieldsRule): Record<string, unknown> {
  let out: Record<string, unknown> = item;
  if (rule.include.length > 0) {
    out = {};
    for (const path of [...ALWAYS, ...rule.include]) copyPath(item, out, path.split('.'));
  }
  for (const path of rule.exclude) {
    if (!rule.include.includes(path) && !ALWAYS.includes(path)) out = withoutPath(out, path.split('.'));
  }
  return out;
}

function copyPath(from: Record<string, unknown>, to: Record<string, unknown>, path: string[]): void {
  const [head, ...rest] = path;
  if (!Object.hasOwn(from, head)) return;
  const value = from[head];
  if (rest.length === 0) {
    to[head] = value;
    return;
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return;
  const existing = to[head];
  const target = existing !== null && typeof existing === 'object' ? (existing as Record<string, unknown>) : {};
  to[head] = target;
  copyPath(value as Record<string, unknown>, target, rest);
}

// A copy without the member at path (the item itself is shared by nothing, but stays unchanged).
function withoutPath(from: Record<string, unknown>, path: string[]): Record<string, unknown> {
  const [head, ...rest] = path;
  if (!Object.hasOwn(from, head)) return from;
  const { [head]: value, ...others } = from;
  if (rest.length === 0) return others;
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return from;
  return { ...others, [head]: withoutPath(value as Record<string, unknown>, rest) };
}
