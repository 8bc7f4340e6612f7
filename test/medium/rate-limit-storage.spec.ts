import { ThrottlerStorage } from '@nestjs/throttler';
import Redis from 'ioredis';
import { MemoryRateLimitStorage } from '../../src/rate-limit/memory-rate-limit.storage';
import { RedisWithFallbackStorage } from '../../src/rate-limit/rate-limit-storage';
import { TcpProxy } from '../helpers/tcp-proxy';

const REDIS_URL = process.env.TEST_REDIS_URL || 'redis://127.0.0.1:6379';

// The in-memory counters and the Redis counters (real Redis) answer the same sequence the same way.
describe('rate-limit storages', () => {
  const prefix = `lis-test:${process.pid}:${Date.now()}:`;
  const redis = new Redis(REDIS_URL, { lazyConnect: true });
  const storages: Array<[string, ThrottlerStorage & { onApplicationShutdown(): void }]> = [];

  beforeAll(async () => {
    await redis.connect();
    storages.push(['memory', new MemoryRateLimitStorage()]);
    storages.push(['redis', new RedisWithFallbackStorage(redis.duplicate(), new MemoryRateLimitStorage())]);
  });
  afterAll(async () => {
    storages.forEach(([, s]) => s.onApplicationShutdown());
    const keys = await redis.keys(`*${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    await redis.quit();
  });

  it.each(['memory', 'redis'])('%s: counts, blocks over the limit, and reports the times', async (name) => {
    const storage = storages.find(([n]) => n === name)![1];
    const key = `${prefix}${name}`;
    const hits = [];
    for (let i = 0; i < 4; i++) hits.push(await storage.increment(key, 60_000, 2, 30_000, 'p'));
    expect(hits.map((h) => h.totalHits)).toEqual([1, 2, 3, 4]);
    expect(hits.map((h) => h.isBlocked)).toEqual([false, false, true, true]);
    expect(hits[0].timeToExpire).toBe(60);
    expect(hits[2].timeToBlockExpire).toBe(30);
    expect(hits[1].timeToBlockExpire).toBe(0);
    // another policy name on the same key counts separately
    expect((await storage.increment(key, 60_000, 2, 30_000, 'q')).totalHits).toBe(1);
  });

  it('falls back to memory while Redis is unreachable, and back to Redis when it returns', async () => {
    const u = new URL(REDIS_URL);
    const proxy = new TcpProxy(u.hostname, Number(u.port || 6379));
    await proxy.start();
    const client = new Redis(proxy.port, '127.0.0.1', {
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      commandTimeout: 500,
    });
    const storage = new RedisWithFallbackStorage(client, new MemoryRateLimitStorage());
    const key = `${prefix}fallback`;
    const inRedis = async () => Number((await redis.get(`{${key}:p}:hits`)) ?? 0);
    try {
      await new Promise((r) => client.once('ready', r));
      await storage.increment(key, 60_000, 50, 60_000, 'p');
      expect(await inRedis()).toBe(1);

      await proxy.refuse();
      expect(await storage.increment(key, 60_000, 50, 60_000, 'p')).toMatchObject({ totalHits: 1, isBlocked: false }); // memory
      expect(await storage.increment(key, 60_000, 50, 60_000, 'p')).toMatchObject({ totalHits: 2 });
      expect(await inRedis()).toBe(1);

      await proxy.restore();
      await new Promise((r) => client.once('ready', r)); // ioredis reconnects by itself
      expect(await storage.increment(key, 60_000, 50, 60_000, 'p')).toMatchObject({ totalHits: 2 });
      expect(await inRedis()).toBe(2);
    } finally {
      storage.onApplicationShutdown();
      await proxy.stop();
    }
  });
});
