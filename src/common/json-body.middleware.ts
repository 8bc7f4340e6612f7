import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { json } from 'express';
import { errorBody, RequestException, RequestExceptionCode } from './app-exception';

export const MAX_BODY_BYTES = 16 * 1024;
const METHODS_WITH_BODY = new Set(['POST', 'PUT', 'PATCH']);

// Parses JSON bodies with explicit bounds and answers parser failures in the API's error shape.
// It runs as Express middleware, before Nest's exception filter can see anything.
export function jsonBody(limitBytes = MAX_BODY_BYTES): RequestHandler {
  const parse = json({ limit: limitBytes, strict: false, type: ['application/json', 'application/*+json'] });
  return (req: Request, res: Response, next: NextFunction) => {
    if (!METHODS_WITH_BODY.has(req.method)) return next();
    if (!req.is(['application/json', 'application/*+json'])) {
      return send(res, new RequestException(RequestExceptionCode.UNSUPPORTED_MEDIA_TYPE, 'Content-Type must be application/json'));
    }
    parse(req, res, (err?: any) => {
      if (!err) return next();
      send(res, fromParserError(err, limitBytes));
    });
  };
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

function send(res: Response, e: RequestException): void {
  if (res.headersSent) return;
  res.status(e.status).json(errorBody(e));
}
