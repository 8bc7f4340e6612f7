import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { json } from 'express';
import { RequestException, RequestExceptionCode } from './app-exception';

export const MAX_BODY_BYTES = 16 * 1024;
// Any body deeper or wider than this is refused before validation walks it: class-transformer and
// Nest's ValidationPipe recurse (a 16 KB body of nested arrays overflows their stack) and copy every member.
export const MAX_JSON_DEPTH = 8;
export const MAX_JSON_MEMBERS = 256;
const METHODS_WITH_BODY = new Set(['POST', 'PUT', 'PATCH']);
const BODY_PROBLEM = Symbol('bodyProblem');
// An unpaired UTF-16 surrogate: valid in JSON text, but not text any database or encoder accepts.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const LONE_SURROGATES = new RegExp(LONE_SURROGATE.source, 'g');
const MAX_FIELD_NAME = 100;

type RequestWithBodyProblem = Request & { [BODY_PROBLEM]?: RequestException };

// Parses JSON bodies with explicit bounds. A body that cannot be accepted is not answered here: the
// problem is kept on the request and raised after the route's guards (RequestBodyInterceptor), so
// an unauthenticated client learns nothing about its body and every answer from a protected route
// has passed authentication and rate limiting.
export function jsonBody(limitBytes = MAX_BODY_BYTES): RequestHandler {
  const parse = json({ limit: limitBytes, strict: false, type: ['application/json', 'application/*+json'] });
  return (req: Request, res: Response, next: NextFunction) => {
    if (!METHODS_WITH_BODY.has(req.method)) return next();
    if (!req.is(['application/json', 'application/*+json'])) {
      return defer(req, next, new RequestException(RequestExceptionCode.UNSUPPORTED_MEDIA_TYPE, 'Content-Type must be application/json'));
    }
    parse(req, res, (err?: any) => {
      if (err) return defer(req, next, fromParserError(err, limitBytes));
      const problem = checkJsonShape(req.body);
      if (problem) return defer(req, next, problem);
      next();
    });
  };
}

export function bodyProblem(req: Request): RequestException | undefined {
  return (req as RequestWithBodyProblem)[BODY_PROBLEM];
}

function defer(req: Request, next: NextFunction, problem: RequestException): void {
  (req as RequestWithBodyProblem)[BODY_PROBLEM] = problem;
  req.body = undefined;
  next();
}

function fromParserError(err: any, limitBytes: number): RequestException {
  switch (err?.type) {
    case 'entity.too.large':
      return new RequestException(
        RequestExceptionCode.PAYLOAD_TOO_LARGE,
        `Request body must be at most ${limitBytes} bytes`,
      );
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return new RequestException(RequestExceptionCode.UNSUPPORTED_MEDIA_TYPE, 'Request body must be UTF-8 JSON');
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
      if (LONE_SURROGATE.test(value)) return invalid(path, 'must be well-formed Unicode text (it has an unpaired surrogate)');
      continue;
    }
    if (value === null || typeof value !== 'object') continue;
    if (depth > MAX_JSON_DEPTH) return invalid('', `must not nest arrays and objects deeper than ${MAX_JSON_DEPTH} levels`);
    const entries: Array<[string, unknown]> = Array.isArray(value)
      ? value.map((v, i) => [String(i), v])
      : Object.entries(value);
    if (entries.length > MAX_JSON_MEMBERS) return invalid(path, `must not have more than ${MAX_JSON_MEMBERS} members`);
    for (const [key, child] of entries) {
      const childPath = path ? `${path}.${key}` : key;
      if (LONE_SURROGATE.test(key)) return invalid(childPath, 'names must be well-formed Unicode text (unpaired surrogate)');
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
