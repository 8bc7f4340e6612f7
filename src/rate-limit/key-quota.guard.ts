import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { enforceRateLimit } from './rate-limit-refusal';
import { RateLimitService } from './rate-limit.service';

// The key ApiKeyGuard authenticated: its id and its own limit (null: the configured default).
type RequestWithKey = Request & { apiKey?: { id: string; rateLimit: number | null } };

// Counts a request against its API key's quota per minute and refuses it with 429 past the limit.
// Runs after ApiKeyGuard (`@UseGuards(ApiKeyGuard, KeyQuotaGuard)`), which counts failed attempts.
@Injectable()
export class KeyQuotaGuard implements CanActivate {
  constructor(private readonly rateLimits: RateLimitService) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const http = context.switchToHttp();
    const key = http.getRequest<RequestWithKey>().apiKey;
    if (!key) throw new Error('KeyQuotaGuard must run after ApiKeyGuard');
    enforceRateLimit(http.getResponse<Response>(), await this.rateLimits.consumeKeyQuota(key));
    return true;
  }
}
