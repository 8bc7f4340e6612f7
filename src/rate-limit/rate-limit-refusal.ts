import type { Response } from 'express';
import { RateLimitDecision, setRateLimitHeaders } from './rate-limit-headers';
import { RateLimitException } from './rate-limit.exception';
import { FAILED_AUTH_POLICY, PER_KEY_POLICY } from './rate-limit.service';

// How a rate-limit decision reaches the client, for every guard that counts requests: the RateLimit fields
// on the answer, and over the quota a 429 (RateLimitException, with Retry-After) saying which limit it was.
export function enforceRateLimit(res: Response, decision: RateLimitDecision): void {
  setRateLimitHeaders(res, decision);
  if (decision.limited) throw new RateLimitException(refusalMessage(decision), decision.resetSeconds);
}

function refusalMessage({ policy, resetSeconds }: RateLimitDecision): string {
  const retry = `retry in ${resetSeconds} s`;
  switch (policy.name) {
    case PER_KEY_POLICY:
      return `Rate limit of ${policy.limit} requests per minute exceeded; ${retry}`;
    case FAILED_AUTH_POLICY:
      return `Too many failed authentication attempts from this address; ${retry}`;
    default:
      // Per client address on a route open to anyone (ClientAddressRateLimit).
      return `Too many requests from this address (${policy.limit} per minute); ${retry}`;
  }
}
