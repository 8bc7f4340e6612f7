import Redis from 'ioredis';
import { MemoryRateLimitStorage } from '../../src/rate-limit/memory-rate-limit.storage';
import { RedisWithFallbackStorage } from '../../src/rate-limit/rate-limit-storage';
import { TcpProxy } from '../helpers/tcp-proxy';

const REDIS_URL = process.env.TEST_REDIS_URL || 'redis://127.0.0.1:6379';

// The Redis storage with its memory stand-in (real Redis); the window's rule itself, which both answer
// alike, is rate-limit-window.spec.ts.
describe('the rate-limit storage with Redis', () => {
  const prefix = `lis-test:${process.pid}:${Date.now()}:`;
  const redis = new Redis(REDIS_URL, { lazyConnect: true });

  beforeAll(() => redis.connect());
  afterAll(async () => {
    const keys = await redis.keys(`*${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    await redis.quit();
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
