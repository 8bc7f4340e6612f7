import net from 'node:net';
import { NestExpressApplication } from '@nestjs/platform-express';
import Redis from 'ioredis';
import request from 'supertest';
import { ApiKeyService } from '../../src/api-key/api-key.service';
import { startApp } from '../helpers/test-app';

const REDIS_URL = process.env.TEST_REDIS_URL || 'redis://127.0.0.1:6379';
const BAD_KEY = 'lis_not-a-real-key-000000000000000000000000';

// Several instances behind one load balancer must share one limit: counters in the real Redis.
describe('rate limiting with REDIS_URL (two instances)', () => {
  const prefix = `lis-test:${process.pid}:${Date.now()}:`;
  let redis: Redis;
  let a: NestExpressApplication;
  let b: NestExpressApplication;

  async function keysWithPrefix(): Promise<string[]> {
    const found: string[] = [];
    let cursor = '0';
    do {
      const [next, batch] = await redis.scan(cursor, 'MATCH', `*${prefix}*`, 'COUNT', 1000);
      cursor = next;
      found.push(...batch);
    } while (cursor !== '0');
    return found;
  }

  beforeAll(async () => {
    redis = new Redis(REDIS_URL);
    const config = { redisUrl: REDIS_URL, rateLimitRedisPrefix: prefix, authFailuresPerMinute: 4 };
    a = await startApp(config);
    b = await startApp(config);
  });

  afterAll(async () => {
    await Promise.all([a.close(), b.close()]);
    const leftovers = await keysWithPrefix();
    if (leftovers.length > 0) await redis.del(...leftovers);
    await redis.quit();
  });

  it("shares a key's quota across instances", async () => {
    const { key } = await a.get(ApiKeyService).create('shared', 4);
    const send = (app: NestExpressApplication) =>
      request(app.getHttpServer()).post('/search').set('x-api-key', key).send({ query: 'Vaduz' });
    const statuses = [];
    const remaining = [];
    for (const app of [a, b, a, b, a, b]) {
      const res = await send(app);
      statuses.push(res.status);
      remaining.push(/r=(\d+)/.exec(res.headers.ratelimit)?.[1]);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 429, 429]);
    expect(remaining).toEqual(['3', '2', '1', '0', '0', '0']);
    expect((await keysWithPrefix()).length).toBeGreaterThan(0); // the counters really are in Redis
  });

  it('shares failed-auth counters across instances', async () => {
    const fail = (app: NestExpressApplication) =>
      request(app.getHttpServer()).post('/search').set('x-api-key', BAD_KEY).send({ query: 'x' });
    const statuses = [];
    for (const app of [a, b, a, b, a]) statuses.push((await fail(app)).status);
    expect(statuses).toEqual([401, 401, 401, 401, 429]);
  });

  it('keeps serving, with per-instance counters, while Redis is unreachable', async () => {
    const closed = net.createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const { port } = closed.address() as net.AddressInfo;
    await new Promise<void>((r) => closed.close(() => r()));
    const started = Date.now();
    const lonely = await startApp({ redisUrl: `redis://127.0.0.1:${port}`, rateLimitRedisPrefix: prefix });
    try {
      const { key } = await lonely.get(ApiKeyService).create('fallback', 2);
      const send = () => request(lonely.getHttpServer()).post('/search').set('x-api-key', key).send({ query: 'Vaduz' });
      await send().expect(200);
      await send().expect(200);
      await send().expect(429);
      expect(Date.now() - started).toBeLessThan(10_000);
    } finally {
      await lonely.close();
    }
  });
});
