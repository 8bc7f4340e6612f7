import { CallHandler, ExecutionContext, Inject, Injectable, NestInterceptor } from '@nestjs/common';
import { from, lastValueFrom, Observable } from 'rxjs';
import { ServerException, ServerExceptionCode } from '../common/app-exception';
import { DATABASE_RETRY_AFTER_SECONDS } from '../common/http-exception.filter';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { withinDeadline } from './statement-deadline';

// SEARCH_DEADLINE_MS on a route that searches (POST /search, the STAC item search, the Street View
// metadata): past it the answer is a 503 with Retry-After at once, whatever the database is doing, and
// the handler's statements still running are cancelled (statement-deadline.ts). Each route's own
// exception filter gives the 503 its shape.
@Injectable()
export class SearchDeadlineInterceptor implements NestInterceptor {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  intercept(_context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const ms = this.config.searchDeadlineMs;
    return from(
      withinDeadline(
        ms,
        () => lastValueFrom(next.handle()),
        () => deadlinePassed(ms),
      ),
    );
  }
}

function deadlinePassed(ms: number): ServerException {
  return new ServerException(
    ServerExceptionCode.DATABASE_UNAVAILABLE,
    `The search did not finish within ${ms} ms (the database is slow or busy); retry shortly`,
    { 'Retry-After': String(DATABASE_RETRY_AFTER_SECONDS) },
  );
}
