import { NestExpressApplication } from '@nestjs/platform-express';
import type { PoolClient } from 'pg';
import { PrismaService } from '../../src/database/prisma.service';
import { HealthRepository } from '../../src/health/health.repository';
import { COMPRESSION_THRESHOLD_BYTES } from '../../src/common/response-compression';
import { ShutdownState } from '../../src/lifecycle/shutdown-state';
import { createThrowawayDatabase } from '../setup/test-database';
import { ContractProxy } from '../helpers/contract';
import { relevanceFixture } from '../helpers/fixtures';
import { createKey, importFixture, resetImagery, startApp } from '../helpers/test-app';

// Reads one sample value from Prometheus text output, e.g. metric(text, 'lis_searches_total', { outcome: 'hit' }).
function metric(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    const m = /^([a-zA-Z_:][\w:]*)(?:\{([^}]*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const have = Object.fromEntries([...(m[2] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((l) => [l[1], l[2]]));
    if (Object.entries(labels).every(([k, v]) => have[k] === v)) return Number(m[3]);
  }
  return undefined;
}

// One Prism for the file; each describe attaches its own app (contract.use) and close() closes them all.
const contract = new ContractProxy();
afterEach(() => expect(contract.takeViolations()).toEqual([]));
afterAll(() => contract.close());

describe('operations', () => {
  let app: NestExpressApplication;
  let key: string;

  beforeAll(async () => {
    await resetImagery();
    await importFixture(relevanceFixture());
    app = await startApp({ metricsOpen: true });
    key = await createKey(app);
    await contract.use(app);
  });

  describe('health', () => {
    it('GET /health/live answers 200 without an API key', async () => {
      const res = await contract.http.get('/health/live').expect(200);
      expect(res.body).toMatchObject({ status: 'ok', details: { process: { status: 'up' } } });
      expect(res.headers['cache-control']).toBe('no-store');
    });

    it('GET /health/ready answers 200 when the database answers and migrations are applied', async () => {
      const res = await contract.http.get('/health/ready').expect(200);
      expect(res.body).toMatchObject({
        status: 'ok',
        details: {
          shutdown: { status: 'up' },
          database: { status: 'up' },
          migrations: { status: 'up', applied: expect.any(Number) },
        },
      });
    });
  });

  describe('metrics', () => {
    it('exposes request durations by route template, method and status, and search result counts', async () => {
      await contract.http.post('/search').set('x-api-key', key).send({ query: 'Qqqxz Nowhere' }).expect(200);
      await contract.http.post('/search').set('x-api-key', key).send({ query: 'Vaduz', limit: 0 }).expect(400);
      // A path segment no metric value can spell by chance (a duration such as 0.012345343 holds "12345").
      await contract.direct.get('/no/such/path/unknown-segment').expect(404);
      const res = await contract.http.get('/metrics').expect(200);
      expect(res.headers['content-type']).toMatch(/^text\/plain;/);
      expect(res.headers['content-type']).toContain('version=0.0.4');
      const text = res.text;
      expect(
        metric(text, 'http_request_duration_seconds_count', { route: '/search', method: 'POST', status_code: '200' }),
      ).toBeGreaterThanOrEqual(1);
      expect(
        metric(text, 'http_request_duration_seconds_count', { route: '/search', method: 'POST', status_code: '400' }),
      ).toBeGreaterThanOrEqual(1);
      expect(
        metric(text, 'http_request_duration_seconds_bucket', {
          route: '/search',
          method: 'POST',
          status_code: '200',
          le: '+Inf',
        }),
      ).toBeGreaterThanOrEqual(1);
      // Unknown paths never become label values (unbounded cardinality).
      expect(text).not.toContain('unknown-segment');
      expect(
        metric(text, 'http_request_duration_seconds_count', { route: 'unmatched', method: 'GET', status_code: '404' }),
      ).toBeGreaterThanOrEqual(1);
      expect(metric(text, 'lis_searches_total', { outcome: 'empty' })).toBeGreaterThanOrEqual(1);
      expect(metric(text, 'lis_search_results_count')).toBeGreaterThanOrEqual(1);
      for (const name of [
        'process_cpu_user_seconds_total',
        'process_resident_memory_bytes',
        'nodejs_heap_size_used_bytes',
        'nodejs_eventloop_lag_seconds',
      ]) {
        expect({ name, value: metric(text, name) }).toEqual({ name, value: expect.any(Number) });
      }
    });

    it('reports the database pool: in use, idle, waiting and its size', async () => {
      const pool = app.get(PrismaService).pools.primary;
      const held: PoolClient[] = [await pool.connect(), await pool.connect()];
      try {
        const text = (await contract.http.get('/metrics').expect(200)).text;
        expect(metric(text, 'lis_db_pool_connections', { pool: 'primary', state: 'in_use' })).toBe(2);
        expect(metric(text, 'lis_db_pool_waiting_requests', { pool: 'primary' })).toBe(0);
        expect(metric(text, 'lis_db_pool_max_connections', { pool: 'primary' })).toBe(10);
      } finally {
        held.forEach((c) => c.release());
      }
      const after = (await contract.http.get('/metrics').expect(200)).text;
      expect(metric(after, 'lis_db_pool_connections', { pool: 'primary', state: 'in_use' })).toBe(0);
      expect(metric(after, 'lis_db_pool_connections', { pool: 'primary', state: 'idle' })).toBeGreaterThanOrEqual(2);
    });
  });

  describe('security headers and compression', () => {
    it('sets helmet headers and no X-Powered-By', async () => {
      const res = await contract.http.post('/search').set('x-api-key', key).send({ query: 'Vaduz' }).expect(200);
      expect(res.headers['x-powered-by']).toBeUndefined();
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
      expect(res.headers['referrer-policy']).toBe('no-referrer');
      expect(res.headers['content-security-policy']).toMatch(/default-src 'self'/);
      // Result images (demo images) may be embedded by pages on other origins.
      expect(res.headers['cross-origin-resource-policy']).toBe('cross-origin');
    });

    it('compresses responses over 8 KB when the client accepts gzip, not smaller ones', async () => {
      // Straight to the app: Prism decompresses what it forwards.
      const big = await contract.direct.get('/openapi.json').set('accept-encoding', 'gzip').expect(200);
      expect(big.headers['content-encoding']).toBe('gzip');
      expect(big.body.openapi).toMatch(/^3\./);
      const small = await contract.direct.get('/health/live').set('accept-encoding', 'gzip').expect(200);
      contract.checkDirect('GET', '/health/live', small);
      expect(small.headers['content-encoding']).toBeUndefined();
      // A page that fits in the connection's first round trip gains nothing from compression.
      const page = await contract.direct
        .post('/search')
        .set('x-api-key', key)
        .set('accept-encoding', 'gzip')
        .send({ query: 'Vaduz', limit: 10 })
        .expect(200);
      expect(page.body.data.length).toBeGreaterThan(0);
      expect(Number(page.headers['content-length'])).toBeGreaterThan(1024);
      expect(Number(page.headers['content-length'])).toBeLessThan(COMPRESSION_THRESHOLD_BYTES);
      expect(page.headers['content-encoding']).toBeUndefined();
      // A client that asks for no encoding gets the response as it is.
      const plain = await contract.direct.get('/openapi.json').set('accept-encoding', '').expect(200);
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.body.openapi).toMatch(/^3\./);
    });

    it('CORS is closed by default: no Access-Control headers for other origins', async () => {
      const res = await contract.http
        .post('/search')
        .set('origin', 'https://evil.example')
        .set('x-api-key', key)
        .send({ query: 'Vaduz' })
        .expect(200);
      expect(res.headers['access-control-allow-origin']).toBeUndefined();
      // A preflight is not answered with permission either (it reaches the route and is refused).
      const preflight = await contract.direct
        .options('/search')
        .set('origin', 'https://evil.example')
        .set('access-control-request-method', 'POST');
      expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
      expect(preflight.headers['access-control-allow-headers']).toBeUndefined();
    });
  });
});

describe('CORS_ORIGINS', () => {
  beforeAll(async () => {
    await contract.use(await startApp({ corsOrigins: ['https://app.example.com'] }));
  });

  it('allows the configured origins, with the API key header and the request id exposed', async () => {
    const preflight = await contract.direct
      .options('/search')
      .set('origin', 'https://app.example.com')
      .set('access-control-request-method', 'POST')
      .set('access-control-request-headers', 'content-type,x-api-key')
      .expect(204);
    expect(preflight.headers['access-control-allow-origin']).toBe('https://app.example.com');
    expect(preflight.headers['access-control-allow-headers']).toMatch(/x-api-key/);
    expect(preflight.headers['access-control-allow-methods']).toMatch(/POST/);
    const res = await contract.http.get('/health/live').set('origin', 'https://app.example.com').expect(200);
    expect(res.headers['access-control-allow-origin']).toBe('https://app.example.com');
    expect(res.headers['access-control-expose-headers']).toMatch(/x-request-id/);
  });

  it('refuses other origins', async () => {
    const res = await contract.http.get('/health/live').set('origin', 'https://evil.example').expect(200);
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('GET /metrics by default', () => {
  // Version, routes and traffic are not for everyone: closed unless METRICS_TOKEN or METRICS_OPEN=true.
  it('401 MISSING_METRICS_TOKEN when neither METRICS_TOKEN nor METRICS_OPEN is set', async () => {
    await contract.use(await startApp());
    const res = await contract.http.get('/metrics').expect(401);
    expect(res.body.error.code).toBe('MISSING_METRICS_TOKEN');
    expect(res.text).not.toContain('http_request_duration_seconds');
  });
});

describe('GET /metrics with METRICS_TOKEN', () => {
  const token = 'metrics-token-0123456789abcdef';
  let key: string;
  beforeAll(async () => {
    const app = await startApp({ metricsToken: token });
    key = await createKey(app);
    await contract.use(app);
  });

  it('401 MISSING_METRICS_TOKEN without a bearer token (an API key is no substitute)', async () => {
    const res = await contract.http.get('/metrics').set('x-api-key', key).expect(401);
    expect(res.body).toEqual({
      isSuccess: false,
      error: { code: 'MISSING_METRICS_TOKEN', message: expect.any(String) },
    });
    expect(res.headers['www-authenticate']).toMatch(/^Bearer/);
  });

  it('401 INVALID_METRICS_TOKEN for a wrong token', async () => {
    for (const header of [`Bearer ${token}x`, `Bearer ${token.slice(0, -1)}`]) {
      const res = await contract.http.get('/metrics').set('authorization', header).expect(401);
      expect(res.body.error.code).toBe('INVALID_METRICS_TOKEN');
    }
    // Not Bearer at all: Prism answers those itself, so straight to the app.
    for (const header of [`Basic ${token}`, token]) {
      const res = await contract.direct.get('/metrics').set('authorization', header).expect(401);
      contract.checkDirect('GET', '/metrics', res);
      expect(res.body.error.code).toBe('INVALID_METRICS_TOKEN');
    }
  });

  it('200 with the right token', async () => {
    const res = await contract.http.get('/metrics').set('authorization', `Bearer ${token}`).expect(200);
    expect(res.text).toContain('http_request_duration_seconds');
  });
});

describe('readiness under a flood of probes', () => {
  // No key and no limit (load balancers call it): probes in between get the last answer, so a flood
  // costs the database at most one round of checks a second.
  it('checks the database at most once a second, however often /health/ready is probed', async () => {
    const app = await startApp();
    try {
      await contract.use(app);
      const prisma = app.get(PrismaService);
      const pings = jest.spyOn(prisma, '$queryRawUnsafe');
      const migrations = jest.spyOn(app.get(HealthRepository), 'appliedMigrations');
      const started = Date.now();
      const answers = await Promise.all(Array.from({ length: 40 }, () => contract.http.get('/health/ready')));
      for (let i = 0; i < 10; i++) answers.push(await contract.http.get('/health/ready'));
      const seconds = Math.ceil((Date.now() - started) / 1000);
      expect(answers.map((r) => r.status)).toEqual(answers.map(() => 200));
      // One round of checks a second begun (the flood took `seconds`), not one a probe.
      expect(migrations.mock.calls.length).toBeGreaterThanOrEqual(1);
      expect(migrations.mock.calls.length).toBeLessThanOrEqual(seconds + 1);
      expect(pings.mock.calls.length).toBeGreaterThanOrEqual(1);
      expect(pings.mock.calls.length).toBeLessThanOrEqual(seconds + 1);
      // A second later the next probe checks again.
      const before = migrations.mock.calls.length;
      await new Promise((r) => setTimeout(r, 1100));
      await contract.http.get('/health/ready').expect(200);
      expect(migrations.mock.calls.length).toBe(before + 1);
    } finally {
      await app.close();
    }
  });
});

describe('readiness when not ready', () => {
  it('turns 503 NOT_READY as soon as shutdown starts, while liveness stays 200', async () => {
    const app = await startApp();
    await contract.use(app);
    await contract.http.get('/health/ready').expect(200);
    app.get(ShutdownState).begin();
    const res = await contract.http.get('/health/ready').expect(503);
    expect(res.body).toEqual({
      isSuccess: false,
      error: {
        code: 'NOT_READY',
        message: 'The service is not ready',
        details: [{ field: 'shutdown', message: 'the process is shutting down' }],
      },
    });
    expect(res.headers['retry-after']).toBe('5');
    await contract.http.get('/health/live').expect(200);
  });

  it('503 when migrations are not applied (an empty database)', async () => {
    const empty = await createThrowawayDatabase();
    const app = await startApp({ databaseUrl: empty.url });
    try {
      await contract.use(app);
      const res = await contract.http.get('/health/ready').expect(503);
      expect(res.body.error.code).toBe('NOT_READY');
      expect(res.body.error.details).toEqual([{ field: 'migrations', message: 'cannot read the migration table' }]);
      await contract.http.get('/health/live').expect(200);
    } finally {
      await app.close();
      await empty.drop();
    }
  });

  it('503 when the database cannot be reached; liveness does not touch the database', async () => {
    await contract.use(
      await startApp({ databaseUrl: 'postgresql://postgres@127.0.0.1:1/unreachable', dbConnectTimeoutMs: 500 }),
    );
    // The API answers as documented meanwhile: 503 DATABASE_UNAVAILABLE with Retry-After.
    const search = await contract.http
      .post('/search')
      .set('x-api-key', `lis_${'k'.repeat(43)}`)
      .send({ query: 'Vaduz' })
      .expect(503);
    expect(search.body.error.code).toBe('DATABASE_UNAVAILABLE');
    const res = await contract.http.get('/health/ready').expect(503);
    expect(res.body.error.details.map((d: { field: string }) => d.field).sort()).toEqual(['database', 'migrations']);
    expect(JSON.stringify(res.body)).not.toMatch(/ECONNREFUSED|127\.0\.0\.1|stack/);
    await contract.http.get('/health/live').expect(200);
  });
});
