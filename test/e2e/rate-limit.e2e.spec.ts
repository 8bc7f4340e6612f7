import { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import { ApiKeyService } from '../../src/api-key/api-key.service';
import { ApiKeyRepository } from '../../src/api-key/api-key.repository';
import { generateApiKey } from '../../src/api-key/api-key-hash';
import { startApp } from '../helpers/test-app';

const BAD_KEY = 'lis_not-a-real-key-000000000000000000000000';
const POLICY = /^"(per-key|failed-auth)";q=\d+;w=60$/;
const LIMIT = /^"(per-key|failed-auth)";r=\d+;t=\d+$/;

describe('rate limiting', () => {
  let app: NestExpressApplication;
  let keys: ApiKeyService;
  const post = (key?: string) => {
    const req = request(app.getHttpServer()).post('/search');
    return key ? req.set('x-api-key', key) : req;
  };

  beforeAll(async () => {
    app = await startApp({ rateLimitPerMinute: 1000, authFailuresPerMinute: 3 });
    keys = app.get(ApiKeyService);
  });
  afterAll(() => app.close());

  describe('RateLimit fields', () => {
    it('are on every answer of POST /search: success, validation, body and auth errors', async () => {
      const { key } = await keys.create('fields');
      const answers = await Promise.all([
        post(key).send({ query: 'Vaduz' }),
        post(key).send({ query: 'Vaduz', limit: 0 }),
        post(key).set('content-type', 'application/json').send('{"query":'),
        post(key).set('content-type', 'text/plain').send('query=Vaduz'),
        post(key).send({ query: 'x', pad: 'x'.repeat(20_000) }),
      ]);
      expect(answers.map((r) => r.status)).toEqual([200, 400, 400, 415, 413]);
      for (const res of answers) {
        expect(res.headers['ratelimit-policy']).toBe('"per-key";q=1000;w=60');
        expect(res.headers.ratelimit).toMatch(/^"per-key";r=99\d;t=(59|60)$/);
      }
      const remaining = answers.map((r) => Number(/r=(\d+)/.exec(r.headers.ratelimit)![1])).sort();
      expect(remaining).toEqual([995, 996, 997, 998, 999]); // each request counted once

      const failed = await Promise.all([post().send({ query: 'Vaduz' }), post('lis_wrong').send({ query: 'Vaduz' })]);
      for (const res of failed) {
        expect(res.status).toBe(401);
        expect(res.headers['ratelimit-policy']).toMatch(POLICY);
        expect(res.headers.ratelimit).toMatch(LIMIT);
      }
    });
  });

  describe('per key', () => {
    it("counts down the key's own limit, then answers 429 RATE_LIMITED with Retry-After", async () => {
      const { key } = await keys.create('limited', 3);
      const remaining: string[] = [];
      for (let i = 0; i < 3; i++) {
        const res = await post(key).send({ query: 'Vaduz' }).expect(200);
        expect(res.headers['ratelimit-policy']).toBe('"per-key";q=3;w=60');
        remaining.push(/r=(\d+)/.exec(res.headers.ratelimit)![1]);
      }
      expect(remaining).toEqual(['2', '1', '0']);
      const res = await post(key).send({ query: 'Vaduz' }).expect(429);
      expect(res.body).toEqual({
        isSuccess: false,
        error: { code: 'RATE_LIMITED', message: expect.stringContaining('3 requests per minute') },
      });
      expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(59);
      expect(Number(res.headers['retry-after'])).toBeLessThanOrEqual(60);
      expect(res.headers.ratelimit).toBe(`"per-key";r=0;t=${res.headers['retry-after']}`);
      // Other keys are not affected.
      const { key: other } = await keys.create('unaffected', 3);
      await post(other).send({ query: 'Vaduz' }).expect(200);
    });

    it('applies a changed limit on the next request', async () => {
      const { key, record } = await keys.create('changed', 100);
      const first = await post(key).send({ query: 'Vaduz' }).expect(200);
      expect(first.headers['ratelimit-policy']).toBe('"per-key";q=100;w=60');
      await keys.setRateLimit(record.prefix, 2);
      const second = await post(key).send({ query: 'Vaduz' }).expect(200);
      expect(second.headers['ratelimit-policy']).toBe('"per-key";q=2;w=60');
      expect(second.headers.ratelimit).toMatch(/^"per-key";r=0;/);
      await post(key).send({ query: 'Vaduz' }).expect(429);
    });

    it('uses RATE_LIMIT_PER_MINUTE for keys without their own limit', async () => {
      const small = await startApp({ rateLimitPerMinute: 2 });
      try {
        const { key } = await small.get(ApiKeyService).create('default');
        const send = () =>
          request(small.getHttpServer()).post('/search').set('x-api-key', key).send({ query: 'Vaduz' });
        await send().expect(200);
        await send().expect(200);
        const res = await send().expect(429);
        expect(res.headers['ratelimit-policy']).toBe('"per-key";q=2;w=60');
      } finally {
        await small.close();
      }
    });
  });

  describe('brute force', () => {
    it('locks an address out after AUTH_FAILURES_PER_MINUTE refused keys, a valid key from it too, at no database cost', async () => {
      // Behind a trusted proxy, so two clients can be told apart by X-Forwarded-For.
      const guard = await startApp({ authFailuresPerMinute: 3, trustProxy: ['loopback'] });
      try {
        const server = guard.getHttpServer();
        const attacker = '203.0.113.7';
        const post = () => request(server).post('/search').set('x-forwarded-for', attacker);
        const { key } = await guard.get(ApiKeyService).create('innocent');
        for (const r of ['2', '1', '0']) {
          const res = await post().set('x-api-key', BAD_KEY).send({ query: 'x' }).expect(401);
          expect(res.headers['ratelimit-policy']).toBe('"failed-auth";q=3;w=60');
          expect(res.headers.ratelimit).toMatch(new RegExp(`^"failed-auth";r=${r};t=`));
        }
        const blocked = await post().set('x-api-key', BAD_KEY).send({ query: 'x' }).expect(429);
        expect(blocked.body.error.code).toBe('RATE_LIMITED');
        expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
        // Locked out: refused before any key is looked up (a guess that happens to be right gains
        // nothing), a missing key as well, and none of it reaches the database.
        const lookups = jest.spyOn(guard.get(ApiKeyRepository), 'findByHash');
        for (let i = 0; i < 5; i++) await post().set('x-api-key', generateApiKey()).send({ query: 'x' }).expect(429);
        await post().send({ query: 'x' }).expect(429);
        const locked = await post().set('x-api-key', key).send({ query: 'x' }).expect(429);
        expect(locked.headers['ratelimit-policy']).toBe('"failed-auth";q=3;w=60');
        expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
        expect(lookups).not.toHaveBeenCalled();
        // Another client is not affected.
        const ok = await request(server)
          .post('/search')
          .set('x-forwarded-for', '203.0.113.8')
          .set('x-api-key', key)
          .send({ query: 'x' })
          .expect(200);
        expect(ok.headers['ratelimit-policy']).toBe('"per-key";q=600;w=60');
      } finally {
        await guard.close();
      }
    });

    it('ignores X-Forwarded-For unless TRUST_PROXY names the proxy', async () => {
      const fail = (server: unknown, forwardedFor: string) =>
        request(server as never)
          .post('/search')
          .set('x-api-key', BAD_KEY)
          .set('x-forwarded-for', forwardedFor)
          .send({ query: 'x' });

      const direct = await startApp({ authFailuresPerMinute: 2 });
      try {
        const server = direct.getHttpServer();
        const statuses = [];
        for (let i = 0; i < 4; i++) statuses.push((await fail(server, `203.0.113.${i}`)).status);
        expect(statuses).toEqual([401, 401, 429, 429]); // rotating the header does not help
      } finally {
        await direct.close();
      }

      const proxied = await startApp({ authFailuresPerMinute: 2, trustProxy: ['loopback'] });
      try {
        const server = proxied.getHttpServer();
        const statuses = [];
        for (let i = 0; i < 3; i++) statuses.push((await fail(server, '203.0.113.50')).status);
        expect(statuses).toEqual([401, 401, 429]);
        expect((await fail(server, '203.0.113.51')).status).toBe(401); // another client behind the proxy
      } finally {
        await proxied.close();
      }
    });
  });

  it('authenticates before looking at the body: without a valid key, body errors are not revealed', async () => {
    const fresh = await startApp();
    try {
      const server = fresh.getHttpServer();
      const res = await request(server).post('/search').set('content-type', 'text/plain').send('query=x').expect(401);
      expect(res.body.error.code).toBe('MISSING_API_KEY');
      const malformed = await request(server)
        .post('/search')
        .set('x-api-key', BAD_KEY)
        .set('content-type', 'application/json')
        .send('{"query":')
        .expect(401);
      expect(malformed.body.error.code).toBe('INVALID_API_KEY');
    } finally {
      await fresh.close();
    }
  });
});
