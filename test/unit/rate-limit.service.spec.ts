import { ThrottlerStorageService } from '@nestjs/throttler';
import { rateLimitHeaders } from '../../src/rate-limit/rate-limit-headers';
import { RateLimitService } from '../../src/rate-limit/rate-limit.service';
import { loadConfig } from '../../src/config/app-config';

describe('RateLimitService (in-memory counters)', () => {
  let storage: ThrottlerStorageService;
  let limits: RateLimitService;
  const key = (id: string, rateLimit: number | null = null) => ({ id, rateLimit });

  beforeEach(() => {
    storage = new ThrottlerStorageService();
    limits = new RateLimitService(storage, loadConfig({ RATE_LIMIT_PER_MINUTE: '5', AUTH_FAILURES_PER_MINUTE: '3' }));
  });
  afterEach(() => storage.onApplicationShutdown());

  it('counts down a key against the server default, then refuses until the window has passed', async () => {
    const seen = [];
    for (let i = 0; i < 6; i++) seen.push(await limits.consumeKeyQuota(key('a')));
    expect(seen.map((d) => d.remaining)).toEqual([4, 3, 2, 1, 0, 0]);
    expect(seen.map((d) => d.limited)).toEqual([false, false, false, false, false, true]);
    expect(seen[0].policy).toEqual({ name: 'per-key', limit: 5, windowSeconds: 60 });
    expect(seen[5].resetSeconds).toBeGreaterThanOrEqual(59);
    expect(seen[5].resetSeconds).toBeLessThanOrEqual(60);
  });

  it("uses a key's own limit, and keeps keys apart", async () => {
    for (let i = 0; i < 2; i++) expect((await limits.consumeKeyQuota(key('b', 2))).limited).toBe(false);
    expect((await limits.consumeKeyQuota(key('b', 2))).limited).toBe(true);
    const other = await limits.consumeKeyQuota(key('c', 1000));
    expect(other).toMatchObject({ limited: false, remaining: 999, policy: { limit: 1000 } });
  });

  it('counts failed authentications per address, IPv6 by /64', async () => {
    for (let i = 0; i < 3; i++) expect((await limits.recordAuthFailure('2001:db8:1:2::1')).limited).toBe(false);
    // Another address in the same /64 is the same client.
    const blocked = await limits.recordAuthFailure('2001:db8:1:2:ffff::9');
    expect(blocked).toMatchObject({ limited: true, remaining: 0, policy: { name: 'failed-auth', limit: 3 } });
    expect((await limits.recordAuthFailure('2001:db8:1:3::1')).limited).toBe(false);
    expect((await limits.recordAuthFailure('10.0.0.1')).limited).toBe(false);
  });

  it('keeps failed-auth and key counters apart', async () => {
    for (let i = 0; i < 4; i++) await limits.recordAuthFailure('10.0.0.2');
    expect((await limits.consumeKeyQuota(key('d'))).limited).toBe(false);
  });
});

describe('rateLimitHeaders', () => {
  it('writes the draft-ietf-httpapi-ratelimit-headers structured fields', () => {
    const policy = { name: 'per-key', limit: 600, windowSeconds: 60 };
    expect(rateLimitHeaders({ policy, remaining: 599, resetSeconds: 42, limited: false })).toEqual({
      'RateLimit-Policy': '"per-key";q=600;w=60',
      RateLimit: '"per-key";r=599;t=42',
    });
    expect(rateLimitHeaders({ policy, remaining: -3, resetSeconds: -1, limited: true }).RateLimit).toBe('"per-key";r=0;t=0');
  });
});
