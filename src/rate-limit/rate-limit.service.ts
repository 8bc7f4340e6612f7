import { Inject, Injectable } from '@nestjs/common';
import { normalizeIp } from '@nestjs/throttler';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { RateLimitDecision, RateLimitPolicy } from './rate-limit-headers';
import { RATE_LIMIT_STORAGE, RateLimitStorage } from './rate-limit-storage';

const WINDOW_SECONDS = 60;

export const PER_KEY_POLICY = 'per-key';
export const FAILED_AUTH_POLICY = 'failed-auth';

// Fixed one-minute windows (one rule in memory and in Redis: rate-limit-window.ts). A client that goes
// over its quota is refused until one window has passed since it went over (the storage's block),
// so hammering on a 429 does not shorten the wait.
@Injectable()
export class RateLimitService {
  constructor(
    @Inject(RATE_LIMIT_STORAGE) private readonly storage: RateLimitStorage,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  // Every authenticated request counts against its key: the key's own limit, else RATE_LIMIT_PER_MINUTE.
  consumeKeyQuota(key: { id: string; rateLimit: number | null }): Promise<RateLimitDecision> {
    const limit = key.rateLimit ?? this.config.rateLimitPerMinute;
    return this.consume({ name: PER_KEY_POLICY, limit, windowSeconds: WINDOW_SECONDS }, `key:${key.id}`);
  }

  // Failed authentications per client address.
  recordAuthFailure(clientAddress: string | undefined): Promise<RateLimitDecision> {
    return this.consumeAddressQuota(FAILED_AUTH_POLICY, this.config.authFailuresPerMinute, clientAddress, 'auth');
  }

  // Requests per client address under a named policy (IPv6 grouped by /64, as one client usually
  // holds one): for routes open to anyone, where there is no key to count against.
  consumeAddressQuota(
    name: string,
    limit: number,
    clientAddress: string | undefined,
    partition = name,
  ): Promise<RateLimitDecision> {
    return this.consume(
      { name, limit, windowSeconds: WINDOW_SECONDS },
      `${partition}:${normalizeIp(clientAddress ?? 'unknown')}`,
    );
  }

  private async consume(policy: RateLimitPolicy, partition: string): Promise<RateLimitDecision> {
    const windowMs = policy.windowSeconds * 1000;
    const key = `${this.config.rateLimitRedisPrefix}${partition}`;
    const hit = await this.storage.increment(key, windowMs, policy.limit, windowMs, policy.name);
    return hit.isBlocked
      ? { policy, remaining: 0, resetSeconds: Math.max(1, hit.timeToBlockExpire), limited: true }
      : {
          policy,
          remaining: Math.max(0, policy.limit - hit.totalHits),
          resetSeconds: Math.max(0, hit.timeToExpire),
          limited: false,
        };
  }
}
