import { isUtf8 } from 'node:buffer';
import contentType from 'content-type';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { json } from 'express';
import { RequestException, RequestExceptionCode } from './app-exception';

export const MAX_BODY_BYTES = 16 * 1024;
// Any body deeper or wider than this is refused before validation walks it: class-transformer and
// Nest's ValidationPipe recurse (a 16 KB body of nested arrays overflows their stack) and copy every member.
export const MAX_JSON_DEPTH = 8;
export const MAX_JSON_MEMBERS = 256;
const METHODS_WITH_BODY = new Set(['POST', 'PUT', 'PATCH']);
const JSON_TYPES = ['application/json', 'application/*+json'];
// RFC 8259 8.1: JSON is UTF-8. `utf8` is a spelling clients really send; UTF-16/32 are refused.
const UTF8_NAMES = new Set(['utf-8', 'utf8']);
const BODY_READER = Symbol('bodyReader');
// An unpaired UTF-16 surrogate: valid in JSON text, but not text any database or encoder accepts.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const LONE_SURROGATES = new RegExp(LONE_SURROGATE.source, 'g');
const MAX_FIELD_NAME = 100;
// Names that reach an object's prototype or shadow its methods (__proto__, constructor, toString, ...):
// class-transformer drops or trips over them silently, so they are refused by name at any depth.
const RESERVED_NAMES = new Set([...Object.getOwnPropertyNames(Object.prototype), 'prototype']);

type BodyReader = () => Promise<RequestException | undefined>;
type RequestWithBodyReader = Request & { [BODY_READER]?: BodyReader };

// Parses JSON bodies with explicit bounds, but only when asked (readBody, from RequestBodyGuard,
// which runs after the route's other guards): an unauthenticated or rate-limited client is answered as soon
// as its headers are in, without waiting for a body it may never send, and learns nothing about it.
// A body that cannot be accepted becomes the RequestException readBody resolves to.
export function jsonBody(limitBytes = MAX_BODY_BYTES): RequestHandler {
  const parse = json({ limit: limitBytes, strict: false, type: JSON_TYPES, verify: refuseInvalidUtf8 });
  return (req: Request, res: Response, next: NextFunction) => {
    if (!METHODS_WITH_BODY.has(req.method)) return next();
    let read: Promise<RequestException | undefined> | undefined;
    (req as RequestWithBodyReader)[BODY_READER] = () => (read ??= parseBody(req, res, parse, limitBytes));
    next();
  };
}

// The body problem, if any; undefined once req.body holds the parsed JSON (or there is no body reader).
export function readBody(req: Request): Promise<RequestException | undefined> {
  return (req as RequestWithBodyReader)[BODY_READER]?.() ?? Promise.resolve(undefined);
}

function parseBody(
  req: Request,
  res: Response,
  parse: RequestHandler,
  limitBytes: number,
): Promise<RequestException | undefined> {
  const refuse = (problem: RequestException) => {
    req.body = undefined;
    return Promise.resolve(problem);
  };
  if (!req.is(JSON_TYPES)) {
    return refuse(
      new RequestException(RequestExceptionCode.UNSUPPORTED_MEDIA_TYPE, 'Content-Type must be application/json'),
    );
  }
  const charset = charsetOf(req);
  if (charset !== undefined && !UTF8_NAMES.has(charset)) return refuse(notUtf8());
  // body-parser knows only the `utf-8` spelling; it reads the charset from the header itself.
  if (charset === 'utf8') setCharset(req, 'utf-8');
  // Too large by its own Content-Length: answered now, not after draining bytes the client may never send.
  const length = Number(req.headers['content-length']);
  if (!req.headers['content-encoding'] && length > limitBytes) return refuse(tooLarge(limitBytes));
  return new Promise((resolve) => {
    parse(req, res, (err?: unknown) => {
      if (err) return resolve(refuse(fromParserError(err, limitBytes)));
      const problem = checkJsonShape(req.body);
      resolve(problem ? refuse(problem) : undefined);
    });
  });
}

// body-parser decodes with iconv-lite, which replaces bytes that are not UTF-8 ("Z\xfcrich" would search
// "Z\uFFFDrich"); the raw bytes (after Content-Encoding) are checked first. Node's native check, no copy.
const INVALID_UTF8 = 'encoding.invalid';
function refuseInvalidUtf8(_req: unknown, _res: unknown, bytes: Buffer): void {
  if (!isUtf8(bytes)) throw Object.assign(new Error('Request body is not valid UTF-8'), { type: INVALID_UTF8 });
}

function charsetOf(req: Request): string | undefined {
  try {
    return contentType.parse(req).parameters.charset?.toLowerCase();
  } catch {
    // Parameters that do not parse: a charset among them cannot be known to be UTF-8.
    return /charset/i.test(req.headers['content-type'] ?? '') ? '(unreadable)' : undefined;
  }
}

function setCharset(req: Request, charset: string): void {
  const { type, parameters } = contentType.parse(req);
  req.headers['content-type'] = contentType.format({ type, parameters: { ...parameters, charset } });
}

const notUtf8 = () =>
  new RequestException(RequestExceptionCode.UNSUPPORTED_MEDIA_TYPE, 'Request body must be UTF-8 JSON');
const tooLarge = (limitBytes: number) =>
  new RequestException(RequestExceptionCode.PAYLOAD_TOO_LARGE, `Request body must be at most ${limitBytes} bytes`);

function fromParserError(err: unknown, limitBytes: number): RequestException {
  // body-parser's errors say what went wrong in `type`.
  switch ((err as { type?: unknown } | null)?.type) {
    case 'entity.too.large':
      return tooLarge(limitBytes);
    case 'charset.unsupported':
      return notUtf8();
    case 'encoding.unsupported':
      return new RequestException(RequestExceptionCode.UNSUPPORTED_MEDIA_TYPE, 'Unsupported Content-Encoding');
    case INVALID_UTF8:
      return new RequestException(
        RequestExceptionCode.MALFORMED_JSON,
        'Request body is not valid UTF-8 (it has a byte sequence UTF-8 does not allow)',
      );
    case 'entity.parse.failed':
      return new RequestException(RequestExceptionCode.MALFORMED_JSON, 'Request body is not valid JSON');
    default:
      return new RequestException(RequestExceptionCode.INVALID_REQUEST, 'Request body could not be read');
  }
}

// One iterative walk (no recursion, so no depth can overflow it) over at most 16 KB of parsed JSON.
export function checkJsonShape(body: unknown): RequestException | undefined {
  const stack: Array<{ value: unknown; depth: number; path: string }> = [{ value: body, depth: 1, path: '' }];
  while (stack.length > 0) {
    const { value, depth, path } = stack.pop()!;
    if (typeof value === 'string') {
      if (LONE_SURROGATE.test(value))
        return invalid(path, 'must be well-formed Unicode text (it has an unpaired surrogate)');
      continue;
    }
    if (value === null || typeof value !== 'object') continue;
    if (depth > MAX_JSON_DEPTH)
      return invalid('', `must not nest arrays and objects deeper than ${MAX_JSON_DEPTH} levels`);
    const entries: Array<[string, unknown]> = Array.isArray(value)
      ? value.map((v, i) => [String(i), v])
      : Object.entries(value);
    if (entries.length > MAX_JSON_MEMBERS) return invalid(path, `must not have more than ${MAX_JSON_MEMBERS} members`);
    for (const [key, child] of entries) {
      const childPath = path ? `${path}.${key}` : key;
      if (LONE_SURROGATE.test(key))
        return invalid(childPath, 'names must be well-formed Unicode text (unpaired surrogate)');
      if (!Array.isArray(value) && RESERVED_NAMES.has(key)) return invalid(childPath, 'should not exist');
      stack.push({ value: child, depth: depth + 1, path: childPath });
    }
  }
  return undefined;
}

function invalid(path: string, rule: string): RequestException {
  const shortened = path.length > MAX_FIELD_NAME ? `${path.slice(0, MAX_FIELD_NAME)}…` : path;
  const field = path === '' ? '(body)' : shortened.replace(LONE_SURROGATES, '\uFFFD');
  const message = `${field} ${rule}`;
  return new RequestException(RequestExceptionCode.INVALID_REQUEST, message, [{ field, message }]);
}
