import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { HeldAnswers } from '../rate-limit/held-answers';
import { enforceRateLimit } from '../rate-limit/rate-limit-refusal';
import { RateLimitService } from '../rate-limit/rate-limit.service';
import { ApiKeyException } from './api-key.exception';
import { ApiKeyService, AuthenticatedKey } from './api-key.service';

export type RequestWithApiKey = Request & { apiKey?: AuthenticatedKey };

/** The request header a key comes in (Node spells incoming headers in lower case). */
export const API_KEY_HEADER = 'x-api-key';

// Authenticates the x-api-key header; a refused key counts as a failed attempt of its client address,
// and an address over the limit is locked out until its block ends (brute force: src/rate-limit/
// decides and answers, 429). The key's own quota is KeyQuotaGuard's.
@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(
    private readonly apiKeys: ApiKeyService,
    private readonly rateLimits: RateLimitService,
    private readonly heldAnswers: HeldAnswers,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const http = context.switchToHttp();
    const req = http.getRequest<RequestWithApiKey>();
    const res = http.getResponse<Response>();
    const header = req.headers[API_KEY_HEADER];
    const address = req.ip ?? req.socket.remoteAddress;
    // Locked out (brute force): refused before the key is looked at, at no database cost, and slowly.
    const lockout = this.rateLimits.authLockout(address);
    if (lockout) {
      await this.heldAnswers.hold(res);
      enforceRateLimit(res, lockout);
    }
    let key: AuthenticatedKey;
    try {
      key = await this.apiKeys.authenticate(Array.isArray(header) ? header[0] : header);
    } catch (error) {
      // Only a refused key counts as a failed attempt; a database outage is not the client's doing.
      if (error instanceof ApiKeyException && error.status === 401) {
        enforceRateLimit(res, await this.rateLimits.recordAuthFailure(address));
      }
      throw error;
    }
    req.apiKey = key;
    return true;
  }
}
