import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import {
  AppException,
  ERROR_CACHE_CONTROL,
  ErrorBody,
  errorBody,
  RequestException,
  RequestExceptionCode,
  ServerException,
  ServerExceptionCode,
} from './app-exception';
import { databaseTrouble } from './database-errors';

// Seconds a client should wait after a 503: long enough for a pool to reconnect, short enough to recover quickly.
export const DATABASE_RETRY_AFTER_SECONDS = 5;

// The one place where any error becomes an HTTP response; nothing internal ever leaves here. A part of
// the API that speaks another standard's error shape (the STAC API's, Google's Street View metadata)
// extends it and overrides `body` (and `statusOf`).
@Catch()
export class HttpExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('HttpExceptionFilter');

  catch(exception: unknown, host: ArgumentsHost): void {
    const res = host.switchToHttp().getResponse<Response>();
    const appException = this.toAppException(exception);
    if (appException.status === 503) {
      // An outage fails every request: one line each, not a stack trace each.
      this.logger.warn(`${appException.code}: ${summary(exception)}`);
    } else if (appException.status >= 500) {
      this.logger.error(exception instanceof Error ? (exception.stack ?? exception.message) : String(exception));
    }
    if (res.headersSent) return;
    // A refused request's body is not read (see jsonBody); if it is still on its way, or announced and
    // never sent, close the connection after the answer rather than wait for it.
    if (!host.switchToHttp().getRequest<Request>().complete) res.setHeader('Connection', 'close');
    // Whatever caching a handler set for the answer it meant to give.
    res.setHeader('Cache-Control', ERROR_CACHE_CONTROL);
    res.removeHeader('ETag');
    for (const [name, value] of Object.entries(appException.headers ?? {})) res.setHeader(name, value);
    // type() because a handler may have set another Content-Type (e.g. an image) before failing.
    res.status(this.statusOf(appException)).type('application/json').json(this.body(appException));
  }

  protected body(e: AppException): ErrorBody | object {
    return errorBody(e);
  }

  protected statusOf(e: AppException): number {
    return e.status;
  }

  private toAppException(exception: unknown): AppException {
    if (exception instanceof AppException) return exception;
    if (exception instanceof HttpException) return fromHttpException(exception);
    const trouble = databaseTrouble(exception);
    if (trouble) {
      const message =
        trouble === 'timeout'
          ? 'The database did not answer in time; retry shortly'
          : 'The database is unavailable; retry shortly';
      return new ServerException(ServerExceptionCode.DATABASE_UNAVAILABLE, message, {
        'Retry-After': String(DATABASE_RETRY_AFTER_SECONDS),
      });
    }
    return new ServerException(ServerExceptionCode.INTERNAL_ERROR, 'Internal server error');
  }
}

// Prisma puts the cause on the last line, after the call site.
function summary(exception: unknown): string {
  const text = exception instanceof Error ? exception.message : String(exception);
  return (
    text
      .trim()
      .split('\n')
      .filter((l) => l.trim())
      .pop() ?? 'unknown error'
  );
}

function fromHttpException(exception: HttpException): AppException {
  const status = exception.getStatus();
  if (status === 404) return new RequestException(RequestExceptionCode.NOT_FOUND, 'No such route');
  if (status === 405) return new RequestException(RequestExceptionCode.METHOD_NOT_ALLOWED, 'Method not allowed');
  if (status === 413) return new RequestException(RequestExceptionCode.PAYLOAD_TOO_LARGE, 'Request body is too large');
  if (status === 415) {
    return new RequestException(RequestExceptionCode.UNSUPPORTED_MEDIA_TYPE, 'Content-Type must be application/json');
  }
  if (status >= 400 && status < 500)
    return new RequestException(RequestExceptionCode.INVALID_REQUEST, 'Invalid request');
  return new ServerException(ServerExceptionCode.INTERNAL_ERROR, 'Internal server error');
}
