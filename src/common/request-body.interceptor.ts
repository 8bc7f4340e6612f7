import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import type { Request } from 'express';
import { Observable, throwError } from 'rxjs';
import { bodyProblem } from './json-body.middleware';

// Raises the body problem jsonBody() recorded (413, 415, malformed or over-deep JSON). Interceptors run
// after guards, so authentication and rate limiting come first, and before pipes, so nothing validates
// a body that was refused.
@Injectable()
export class RequestBodyInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'http') return next.handle();
    const problem = bodyProblem(context.switchToHttp().getRequest<Request>());
    return problem ? throwError(() => problem) : next.handle();
  }
}
