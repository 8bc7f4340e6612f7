import { API_KEY_PREFIX } from '../api-key/api-key-hash';

export const CENSOR = '[Redacted]';

// Names that say "this is a secret", compared without case or punctuation, so the near misses clients
// really send (x_api_key, api-key, apiKey, ?key=, access_token) are caught like the real header.
const SECRET_NAME = /key|token|secret|passw|pwd|auth|cookie|session|signature|credential/;
// A key of this service wherever it turns up (in a path, a query value, any header), whatever it is called.
const API_KEY_SHAPE = new RegExp(`${API_KEY_PREFIX}[A-Za-z0-9_-]{8,}`);

// Recognises a key the server knows, of any form (a BOOTSTRAP_API_KEY need not start with lis_), or the
// secret part of one (known-api-keys.ts); without one, keys are recognised by their shape alone.
export type KeyCheck = (text: string) => boolean;
const SHAPE_ONLY: KeyCheck = () => false;
// Where a value is cut into words, each checked too: `Bearer <key>`, `a, <key>`, `token=<key>`.
const WORD_BREAK = /[\s,;="']+/;

export function isSecretName(name: string): boolean {
  return SECRET_NAME.test(name.toLowerCase().replace(/[^a-z0-9]/g, ''));
}

function decode(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text; // malformed escapes: judged as sent
  }
}

// True when the text holds something shaped like a key of this service (raw or URL-encoded).
export function hasKeyShape(text: string): boolean {
  return API_KEY_SHAPE.test(text) || API_KEY_SHAPE.test(decode(text));
}

// True when the text holds a key: shaped like one, or one `isKey` knows, whole or as one of its words,
// raw or URL-encoded.
export function holdsKey(text: string, isKey: KeyCheck = SHAPE_ONLY): boolean {
  if (hasKeyShape(text)) return true;
  if (isKey === SHAPE_ONLY) return false;
  const decoded = decode(text);
  for (const form of decoded === text ? [text] : [text, decoded]) {
    if (isKey(form) || form.split(WORD_BREAK).some(isKey)) return true;
  }
  return false;
}

// The path and query string as received, with every secret-named parameter's value and anything that
// holds an API key replaced. The rest stays readable for whoever debugs from the log.
export function redactUrl(url: string, isKey: KeyCheck = SHAPE_ONLY): string {
  const q = url.indexOf('?');
  const path = q === -1 ? url : url.slice(0, q);
  const safePath = path
    .split('/')
    .map((segment) => (holdsKey(segment, isKey) || holdsKey(withoutExtension(segment), isKey) ? CENSOR : segment))
    .join('/');
  if (q === -1) return safePath;
  const pairs = url
    .slice(q + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const name = eq === -1 ? pair : pair.slice(0, eq);
      if (holdsKey(name, isKey)) return CENSOR;
      if (eq === -1) return pair;
      return isSecretName(decode(name)) || holdsKey(pair.slice(eq + 1), isKey) ? `${name}=${CENSOR}` : pair;
    });
  return `${safePath}?${pairs.join('&')}`;
}

// The query as a plain object, read from the redacted URL (never from the parsed original).
export function redactedQuery(url: string, isKey: KeyCheck = SHAPE_ONLY): Record<string, string | string[]> {
  const redacted = redactUrl(url, isKey);
  const q = redacted.indexOf('?');
  const query: Record<string, string | string[]> = Object.create(null); // ?__proto__= is just a name here
  if (q === -1) return query;
  for (const [name, value] of new URLSearchParams(redacted.slice(q + 1))) {
    const seen = query[name];
    query[name] = seen === undefined ? value : Array.isArray(seen) ? [...seen, value] : [seen, value];
  }
  return query;
}

// Headers with secret-named ones censored; URLs in Referer redacted like the request's own.
export function redactHeaders(headers: Record<string, unknown>, isKey: KeyCheck = SHAPE_ONLY): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (isSecretName(name)) out[name] = CENSOR;
    else if (typeof value === 'string')
      out[name] = name === 'referer' ? redactUrl(value, isKey) : redactValue(value, isKey);
    else if (Array.isArray(value)) out[name] = value.map((v) => redactValue(String(v), isKey));
    else out[name] = value;
  }
  return out;
}

// A value holding an API key is censored whole.
export function redactValue(text: string, isKey: KeyCheck = SHAPE_ONLY): string {
  return holdsKey(text, isKey) ? CENSOR : text;
}

// `<key>.svg` in a path: the key without what follows its last dot.
function withoutExtension(segment: string): string {
  const dot = segment.lastIndexOf('.');
  return dot > 0 ? segment.slice(0, dot) : segment;
}
