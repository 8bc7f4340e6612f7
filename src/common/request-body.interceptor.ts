import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import type { Request } from 'express';
import { from, mergeMap, Observable, throwError } from 'rxjs';
import { readBody } from './json-body.middleware';

// Reads and checks the body (413, 415, malformed or over-deep JSON) only now: interceptors run after
// guards, so authentication and rate limiting answer first, without the body, and before pipes, so
// nothing validates a body that was refused.
@Injectable()
export class RequestBodyInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'http') return next.handle();
    return from(readBody(context.switchToHttp().getRequest<Request>())).pipe(
      mergeMap((problem) => (problem ? throwError(() => problem) : next.handle())),
    );
  }
}
