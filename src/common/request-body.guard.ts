import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { readBody } from './json-body.middleware';

// Reads and checks the body (413, 415, malformed or over-deep JSON) only now, listed after a route's
// other guards: authentication and rate limiting answer first, without the body, and nothing
// validates a body that was refused. A guard, not an interceptor: Nest wraps each interceptor in an
// rxjs pipeline and an AsyncResource per request (its bound function defines deprecated accessors
// on every call), which showed in the server's CPU profile under load (docs/benchmarks.md#fig-no-interceptor).
@Injectable()
export class RequestBodyGuard implements CanActivate {
  async canActivate(context: ExecutionContext): Promise<boolean> {
    const problem = await readBody(context.switchToHttp().getRequest<Request>());
    if (problem) throw problem;
    return true;
  }
}
