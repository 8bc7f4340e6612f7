import { ThrottlerStorageRedisService } from '@nest-lab/throttler-storage-redis';
import { ThrottlerStorage } from '@nestjs/throttler';
import Redis from 'ioredis';
import { MemoryRateLimitStorage } from '../../src/rate-limit/memory-rate-limit.storage';
import { RATE_LIMIT_WINDOW, WindowAnswer, WindowCase } from '../../src/rate-limit/rate-limit-window';

const REDIS_URL = process.env.TEST_REDIS_URL || 'redis://127.0.0.1:6379';

// The rate-limit window's cases (src/rate-limit/rate-limit-window.ts), each on the memory counters and on
// the Redis script (a real Redis): the same hits, the same answers. Time moves on for the memory counters
// through Date.now, and in Redis by shortening the TTL of the case's keys (the script reads time only
// through them; a key whose time is up is deleted, as Redis would expire it). The hits are whole seconds
// apart and the answers whole seconds, so the milliseconds Redis's own clock runs on meanwhile change nothing.
describe('the rate-limit window, in memory and in Redis', () => {
  const prefix = `lis-test:${process.pid}:${Date.now()}:`;
  const redis = new Redis(REDIS_URL, { lazyConnect: true });
  const keyOf = (i: number) => `${prefix}case-${i}`;

  beforeAll(() => redis.connect());
  afterAll(async () => {
    const keys = await redis.keys(`{${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    await redis.quit();
  });

  async function answers(
    storage: ThrottlerStorage,
    key: string,
    c: WindowCase,
    moveClock: (ms: number) => Promise<void>,
  ): Promise<WindowAnswer[]> {
    const out: WindowAnswer[] = [];
    let now = 0;
    for (const hit of c.hits) {
      await moveClock(hit.at - now);
      now = hit.at;
      const r = await storage.increment(key, c.ttl, c.limit, c.blockDuration, hit.name ?? 'p');
      out.push([r.totalHits, r.timeToExpire, r.isBlocked, r.timeToBlockExpire]);
    }
    return out;
  }

  it.each(RATE_LIMIT_WINDOW.map((c, i) => [c.rule, c, i] as const))('memory: %s', async (_rule, c, i) => {
    const storage = new MemoryRateLimitStorage();
    let clock = Date.now();
    const now = jest.spyOn(Date, 'now').mockImplementation(() => clock);
    try {
      const got = await answers(storage, keyOf(i), c, async (ms) => void (clock += ms));
      expect(got).toEqual(c.hits.map((h) => h.answer));
    } finally {
      now.mockRestore();
      storage.onApplicationShutdown();
    }
  });

  it.each(RATE_LIMIT_WINDOW.map((c, i) => [c.rule, c, i] as const))('redis: %s', async (_rule, c, i) => {
    const storage = new ThrottlerStorageRedisService(redis);
    const key = keyOf(i);
    const got = await answers(storage, key, c, async (ms) => {
      if (ms <= 0) return;
      // The script's keys are `{<key>:<policy>}:hits` and `{<key>:<policy>}:blocked`.
      for (const k of await redis.keys(`{${key}:*`)) {
        const left = await redis.pttl(k);
        if (left < 0) continue;
        if (left - ms <= 0) await redis.del(k);
        else await redis.pexpire(k, left - ms);
      }
    });
    expect(got).toEqual(c.hits.map((h) => h.answer));
  });
});
