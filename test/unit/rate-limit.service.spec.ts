import { MemoryRateLimitStorage } from '../../src/rate-limit/memory-rate-limit.storage';
import { RATE_LIMIT_WINDOW } from '../../src/rate-limit/rate-limit-window';
import { rateLimitHeaders } from '../../src/rate-limit/rate-limit-headers';
import { RateLimitService } from '../../src/rate-limit/rate-limit.service';
import { loadConfig } from '../../src/config/app-config';

describe('RateLimitService (in-memory counters)', () => {
  let storage: MemoryRateLimitStorage;
  let limits: RateLimitService;
  const key = (id: string, rateLimit: number | null = null) => ({ id, rateLimit });

  beforeEach(() => {
    storage = new MemoryRateLimitStorage();
    limits = new RateLimitService(storage, loadConfig({ RATE_LIMIT_PER_MINUTE: '5', AUTH_FAILURES_PER_MINUTE: '3' }));
  });
  afterEach(() => storage.onApplicationShutdown());

  it('counts down a key against the server default, then refuses until the window has passed', async () => {
    const seen = [];
    for (let i = 0; i < 6; i++) seen.push(await limits.consumeKeyQuota(key('a')));
    expect(seen.map((d) => d.remaining)).toEqual([4, 3, 2, 1, 0, 0]);
    expect(seen[0].resetSeconds).toBe(60);
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

  it('locks an address out once over the failed-auth limit, until its block ends, IPv6 by /64', async () => {
    jest.useFakeTimers({ now: 5_000_000, doNotFake: ['nextTick', 'setImmediate'] });
    try {
      for (let i = 0; i < 3; i++) {
        await limits.recordAuthFailure('2001:db8:9:9::1');
        expect(limits.authLockout('2001:db8:9:9::1')).toBeUndefined();
      }
      await limits.recordAuthFailure('2001:db8:9:9::1');
      expect(limits.authLockout('2001:db8:9:9::77')).toMatchObject({
        limited: true,
        remaining: 0,
        resetSeconds: 60,
        policy: { name: 'failed-auth', limit: 3, windowSeconds: 60 },
      });
      expect(limits.authLockout('2001:db8:9:8::1')).toBeUndefined();
      expect(limits.authLockout('10.0.0.9')).toBeUndefined();
      jest.advanceTimersByTime(59_500);
      expect(limits.authLockout('2001:db8:9:9::1')?.resetSeconds).toBe(1);
      jest.advanceTimersByTime(600);
      expect(limits.authLockout('2001:db8:9:9::1')).toBeUndefined();
    } finally {
      jest.useRealTimers();
    }
  });

  it('keeps failed-auth and key counters apart', async () => {
    for (let i = 0; i < 4; i++) await limits.recordAuthFailure('10.0.0.2');
    expect((await limits.consumeKeyQuota(key('d'))).limited).toBe(false);
  });
});

describe('MemoryRateLimitStorage', () => {
  let storage: MemoryRateLimitStorage;
  beforeEach(() => {
    jest.useFakeTimers({ now: 1_000_000 });
    storage = new MemoryRateLimitStorage();
  });
  afterEach(() => {
    storage.onApplicationShutdown();
    jest.useRealTimers();
  });

  // The window's rule, as the cases both storages answer (the medium spec runs them on Redis too).
  it.each(RATE_LIMIT_WINDOW.map((c) => [c.rule, c] as const))('%s', async (_rule, c) => {
    const got = [];
    let now = 0;
    for (const h of c.hits) {
      jest.advanceTimersByTime(h.at - now);
      now = h.at;
      const r = await storage.increment('k', c.ttl, c.limit, c.blockDuration, h.name ?? 'p');
      got.push([r.totalHits, r.timeToExpire, r.isBlocked, r.timeToBlockExpire]);
    }
    expect(got).toEqual(c.hits.map((h) => h.answer));
  });

  it('keeps separate counters per key and policy, and forgets idle ones', async () => {
    await storage.increment('a', 60_000, 5, 60_000, 'p');
    await storage.increment('a', 60_000, 5, 60_000, 'q');
    expect((await storage.increment('b', 60_000, 5, 60_000, 'p')).totalHits).toBe(1);
    expect(storage.size).toBe(3);
    jest.advanceTimersByTime(60_001);
    storage.sweep();
    expect(storage.size).toBe(0);
  });

  it('keeps one counter per key, not one entry per hit, however busy the key', async () => {
    jest.useRealTimers();
    for (let i = 0; i < 50_000; i++) await storage.increment('busy', 60_000, 100_000, 60_000, 'p');
    expect(storage.size).toBe(1);
    expect((await storage.increment('busy', 60_000, 100_000, 60_000, 'p')).totalHits).toBe(50_001);
  });
});

describe('rateLimitHeaders', () => {
  it('writes the draft-ietf-httpapi-ratelimit-headers structured fields', () => {
    const policy = { name: 'per-key', limit: 600, windowSeconds: 60 };
    expect(rateLimitHeaders({ policy, remaining: 599, resetSeconds: 42, limited: false })).toEqual({
      'RateLimit-Policy': '"per-key";q=600;w=60',
      RateLimit: '"per-key";r=599;t=42',
    });
    expect(rateLimitHeaders({ policy, remaining: -3, resetSeconds: -1, limited: true }).RateLimit).toBe(
      '"per-key";r=0;t=0',
    );
  });
});
