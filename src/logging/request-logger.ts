import type { IncomingMessage, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { NextFunction } from 'express';
// nestjs-pino keeps the request's logger here for Nest's Logger calls made while handling it.
import { Store, storage } from 'nestjs-pino/storage';
import type { Level, Logger } from 'pino';
import type { RequestWithApiKey } from '../api-key/api-key.guard';
import { routeOf } from '../metrics/route-of';
import type { KeyCheck } from './log-redaction';
import { requestId, serializeRequest } from './logging';

type LoggedRequest = IncomingMessage & { id?: string; originalUrl?: string; params?: Record<string, unknown> };

// The request as its log lines show it (redacted by serializeRequest).
function requestFields(req: LoggedRequest, isKey?: KeyCheck): Record<string, unknown> {
  return serializeRequest(
    {
      id: req.id,
      method: req.method,
      url: req.originalUrl ?? req.url,
      params: req.params,
      headers: req.headers,
      remoteAddress: req.socket?.remoteAddress,
      remotePort: req.socket?.remotePort,
    },
    isKey,
  );
}

function levelOf(req: IncomingMessage, res: ServerResponse): Level {
  if (res.statusCode >= 500) return 'error';
  // Probes and scrapes arrive every few seconds; log them only when asked for.
  if (res.statusCode < 400 && /^\/(health\/|metrics)/.test(req.url ?? '')) return 'debug';
  return 'info';
}

// The logger for lines written while a request is handled (a 5xx from the exception filter, a
// cancelled statement): the request's fields are bound the first time one is written, not per request.
class RequestLogStore extends Store {
  private child?: Logger;

  constructor(
    private readonly root: Logger,
    private readonly req: LoggedRequest,
    private readonly isKey?: KeyCheck,
  ) {
    super(undefined as never);
  }

  // @ts-expect-error Store declares `logger` as a field; here it is an accessor, read by PinoLogger.
  get logger(): Logger {
    return (this.child ??= this.root.child({ req: requestFields(this.req, this.isKey) }));
  }

  set logger(logger: Logger) {
    this.child = logger; // Store's constructor, and PinoLogger.assign
  }
}

// One JSON line per request when it completes: id, method, url, route, status, duration, key prefix.
// Written here rather than by pino-http, which built a child logger per request (the request
// serialized up front, for a line most requests never write), a large part of a simple search's
// server CPU (docs/benchmarks.md#fig-request-log).
// `isKey`: the keys the server knows, redacted wherever they turn up (known-api-keys.ts).
export function requestLogger(logger: Logger, isKey?: KeyCheck) {
  return (req: LoggedRequest, res: ServerResponse, next: NextFunction): void => {
    const startedAt = performance.now();
    req.id = requestId(req, res, isKey);
    // 'close' comes once per response: after it is sent, or when the client went away first.
    res.once('close', () => {
      const level = levelOf(req, res);
      if (!logger.isLevelEnabled(level)) return;
      const line = {
        req: requestFields(req, isKey),
        res: { statusCode: res.statusCode },
        durationMs: Math.round(performance.now() - startedAt),
        route: routeOf(req),
        apiKeyPrefix: (req as RequestWithApiKey).apiKey?.prefix,
        ...(res.writableFinished ? {} : { aborted: true }),
      };
      logger[level](line, level === 'error' ? 'request failed' : 'request completed');
    });
    storage.run(new RequestLogStore(logger, req, isKey), next);
  };
}
