import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { setRateLimitHeaders } from '../rate-limit/rate-limit-headers';
import { RateLimitException } from '../rate-limit/rate-limit.exception';
import { RateLimitService } from '../rate-limit/rate-limit.service';
import { ApiKeyException } from './api-key.exception';
import { ApiKeyService, AuthenticatedKey } from './api-key.service';

export type RequestWithApiKey = Request & { apiKey?: AuthenticatedKey };

// Authenticates the x-api-key header, then rate-limits: valid keys against their own quota, failed
// attempts against their client address (brute force). Either way the answer carries the RateLimit fields.
@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(
    private readonly apiKeys: ApiKeyService,
    private readonly rateLimits: RateLimitService,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const http = context.switchToHttp();
    const req = http.getRequest<RequestWithApiKey>();
    const res = http.getResponse<Response>();
    const header = req.headers['x-api-key'];
    let key: AuthenticatedKey;
    try {
      key = await this.apiKeys.authenticate(Array.isArray(header) ? header[0] : header);
    } catch (error) {
      // Only a refused key counts as a failed attempt; a database outage is not the client's doing.
      if (error instanceof ApiKeyException && error.status === 401) {
        const failures = await this.rateLimits.recordAuthFailure(req.ip ?? req.socket.remoteAddress);
        setRateLimitHeaders(res, failures);
        if (failures.limited) {
          throw new RateLimitException(
            `Too many failed authentication attempts from this address; retry in ${failures.resetSeconds} s`,
            failures.resetSeconds,
          );
        }
      }
      throw error;
    }
    const quota = await this.rateLimits.consumeKeyQuota(key);
    setRateLimitHeaders(res, quota);
    if (quota.limited) {
      throw new RateLimitException(
        `Rate limit of ${quota.policy.limit} requests per minute exceeded; retry in ${quota.resetSeconds} s`,
        quota.resetSeconds,
      );
    }
    req.apiKey = key;
    return true;
  }
}
