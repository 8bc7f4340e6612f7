import type { Response } from 'express';

export interface RateLimitPolicy {
  /** The policy's name in the RateLimit fields: a token, sent as a structured-field string. */
  name: string;
  /** Requests allowed per window. */
  limit: number;
  windowSeconds: number;
}

export interface RateLimitDecision {
  policy: RateLimitPolicy;
  /** Requests left in the current window. */
  remaining: number;
  /** Seconds until the window (or, when limited, the block) ends. */
  resetSeconds: number;
  limited: boolean;
}

// The IETF fields of draft-ietf-httpapi-ratelimit-headers (-10/-11), structured-field lists:
//   RateLimit-Policy: "per-key";q=600;w=60     the quota q per window of w seconds
//   RateLimit: "per-key";r=599;t=42            r requests left for the next t seconds
export function rateLimitHeaders(d: RateLimitDecision): Record<'RateLimit-Policy' | 'RateLimit', string> {
  const name = JSON.stringify(d.policy.name);
  return {
    'RateLimit-Policy': `${name};q=${d.policy.limit};w=${d.policy.windowSeconds}`,
    RateLimit: `${name};r=${Math.max(0, d.remaining)};t=${Math.max(0, d.resetSeconds)}`,
  };
}

export function setRateLimitHeaders(res: Response, d: RateLimitDecision): void {
  for (const [name, value] of Object.entries(rateLimitHeaders(d))) res.setHeader(name, value);
}
