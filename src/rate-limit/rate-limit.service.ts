import { Inject, Injectable } from '@nestjs/common';
import { normalizeIp } from '@nestjs/throttler';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { RateLimitDecision, RateLimitPolicy } from './rate-limit-headers';
import { RATE_LIMIT_STORAGE, RateLimitStorage } from './rate-limit-storage';

const WINDOW_SECONDS = 60;

export const PER_KEY_POLICY = 'per-key';
export const FAILED_AUTH_POLICY = 'failed-auth';

// Addresses locked out remembered at most; past that the oldest go first (they are counted still).
const LOCKED_OUT_MAX = 100_000;

// Fixed one-minute windows (one rule in memory and in Redis: rate-limit-window.ts). A client that goes
// over its quota is refused until one window has passed since it went over (the storage's block),
// so hammering on a 429 does not shorten the wait.
@Injectable()
export class RateLimitService {
  // Addresses over AUTH_FAILURES_PER_MINUTE (by partition), until their block ends: learned from this
  // instance's own counts (Redis's shared ones where configured), and read without any I/O.
  private readonly lockedOut = new Map<string, number>();

  constructor(
    @Inject(RATE_LIMIT_STORAGE) private readonly storage: RateLimitStorage,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  // Every authenticated request counts against its key: the key's own limit, else RATE_LIMIT_PER_MINUTE.
  consumeKeyQuota(key: { id: string; rateLimit: number | null }): Promise<RateLimitDecision> {
    const limit = key.rateLimit ?? this.config.rateLimitPerMinute;
    return this.consume({ name: PER_KEY_POLICY, limit, windowSeconds: WINDOW_SECONDS }, `key:${key.id}`);
  }

  // Failed authentications per client address. Over the limit, the address is locked out until its
  // block ends (authLockout).
  async recordAuthFailure(clientAddress: string | undefined): Promise<RateLimitDecision> {
    const decision = await this.consumeAddressQuota(
      FAILED_AUTH_POLICY,
      this.config.authFailuresPerMinute,
      clientAddress,
      'auth',
    );
    if (decision.limited) this.lockOut(addressPartition('auth', clientAddress), decision.resetSeconds);
    return decision;
  }

  // Brute force: an address locked out is refused before its key is looked at, a right key too (a
  // guess that happens to be right gains nothing during the block), and its refusals cost no query.
  // undefined: not locked out.
  authLockout(clientAddress: string | undefined): RateLimitDecision | undefined {
    const partition = addressPartition('auth', clientAddress);
    const until = this.lockedOut.get(partition);
    if (until === undefined) return undefined;
    const leftMs = until - Date.now();
    if (leftMs <= 0) {
      this.lockedOut.delete(partition);
      return undefined;
    }
    const policy = {
      name: FAILED_AUTH_POLICY,
      limit: this.config.authFailuresPerMinute,
      windowSeconds: WINDOW_SECONDS,
    };
    return { policy, remaining: 0, resetSeconds: Math.ceil(leftMs / 1000), limited: true };
  }

  private lockOut(partition: string, seconds: number): void {
    this.lockedOut.delete(partition); // re-inserted last: the map's order is the order of expiry
    this.lockedOut.set(partition, Date.now() + seconds * 1000);
    if (this.lockedOut.size > LOCKED_OUT_MAX) this.lockedOut.delete(this.lockedOut.keys().next().value!);
  }

  // Requests per client address under a named policy (IPv6 grouped by /64, as one client usually
  // holds one): for routes open to anyone, where there is no key to count against.
  consumeAddressQuota(
    name: string,
    limit: number,
    clientAddress: string | undefined,
    partition = name,
  ): Promise<RateLimitDecision> {
    return this.consume({ name, limit, windowSeconds: WINDOW_SECONDS }, addressPartition(partition, clientAddress));
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

// IPv6 grouped by /64, as one client usually holds one.
function addressPartition(partition: string, clientAddress: string | undefined): string {
  return `${partition}:${normalizeIp(clientAddress ?? 'unknown')}`;
}
