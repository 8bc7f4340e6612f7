import { API_KEY_PREFIX } from '../api-key/api-key-hash';

export const CENSOR = '[Redacted]';

// Names that say "this is a secret", compared without case or punctuation, so the near misses clients
// really send (x_api_key, api-key, apiKey, ?key=, access_token) are caught like the real header.
const SECRET_NAME = /key|token|secret|passw|pwd|auth|cookie|session|signature|credential/;
// A key of this service wherever it turns up (in a path, a query value, any header), whatever it is called.
const API_KEY_SHAPE = new RegExp(`${API_KEY_PREFIX}[A-Za-z0-9_-]{8,}`);

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

// The path and query string as received, with every secret-named parameter's value and anything shaped
// like an API key replaced. The rest stays readable for whoever debugs from the log.
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  const path = q === -1 ? url : url.slice(0, q);
  const safePath = path
    .split('/')
    .map((segment) => (hasKeyShape(segment) ? CENSOR : segment))
    .join('/');
  if (q === -1) return safePath;
  const pairs = url
    .slice(q + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const name = eq === -1 ? pair : pair.slice(0, eq);
      if (hasKeyShape(name)) return CENSOR;
      if (eq === -1) return pair;
      return isSecretName(decode(name)) || hasKeyShape(pair.slice(eq + 1)) ? `${name}=${CENSOR}` : pair;
    });
  return `${safePath}?${pairs.join('&')}`;
}

// The query as a plain object, read from the redacted URL (never from the parsed original).
export function redactedQuery(url: string): Record<string, string | string[]> {
  const redacted = redactUrl(url);
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
export function redactHeaders(headers: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (isSecretName(name)) out[name] = CENSOR;
    else if (typeof value === 'string') out[name] = name === 'referer' ? redactUrl(value) : redactValue(value);
    else if (Array.isArray(value)) out[name] = value.map((v) => redactValue(String(v)));
    else out[name] = value;
  }
  return out;
}

// A value holding something shaped like an API key is censored whole.
export function redactValue(text: string): string {
  return hasKeyShape(text) ? CENSOR : text;
}
