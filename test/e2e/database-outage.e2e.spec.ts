import { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import { createKey, feature, importFixture, resetImagery, startApp } from '../helpers/test-app';
import { TcpProxy } from '../helpers/tcp-proxy';

const CONNECT_TIMEOUT_MS = 500;
const STATEMENT_TIMEOUT_MS = 1000;
// The slowest a request may take while the database is away: a read timeout on a connection that
// went silent (statement timeout + 1 s margin) plus opening a new one, with slack for a busy machine.
const WORST_CASE_MS = STATEMENT_TIMEOUT_MS + 1000 + CONNECT_TIMEOUT_MS + 1500;

// The app runs against PostgreSQL through a proxy the test cuts and restores; no restart in between.
describe('database outage', () => {
  let proxy: TcpProxy;
  let app: NestExpressApplication;
  let key: string;
  const search = (apiKey = key) =>
    request(app.getHttpServer()).post('/search').set('x-api-key', apiKey).send({ query: 'Outage Lane' });

  async function timed(apiKey?: string) {
    const started = Date.now();
    const res = await search(apiKey);
    return { res, ms: Date.now() - started };
  }

  async function expectUnavailable(apiKey?: string) {
    const { res, ms } = await timed(apiKey);
    expect(res.status).toBe(503);
    expect(res.body).toEqual({
      isSuccess: false,
      error: { code: 'DATABASE_UNAVAILABLE', message: expect.any(String) },
    });
    expect(res.headers['retry-after']).toBe('5');
    expect(ms).toBeLessThan(WORST_CASE_MS);
  }

  async function expectRecovery(withinMs: number) {
    const deadline = Date.now() + withinMs;
    let last = 0;
    while (Date.now() < deadline) {
      const res = await search();
      last = res.status;
      if (last === 200) {
        expect(res.body.data.map((r: { address: string }) => r.address)).toEqual(['Outage Lane 1']);
        return;
      }
      expect(last).toBe(503); // nothing else on the way back
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`no recovery within ${withinMs} ms (last status ${last})`);
  }

  beforeAll(async () => {
    await resetImagery();
    await importFixture([feature('Outage Lane 1')]);
    proxy = TcpProxy.forUrl(process.env.DATABASE_URL!);
    await proxy.start();
    app = await startApp({
      databaseUrl: proxy.url(process.env.DATABASE_URL!),
      dbConnectTimeoutMs: CONNECT_TIMEOUT_MS,
      dbStatementTimeoutMs: STATEMENT_TIMEOUT_MS,
      dbPoolSize: 4,
    });
    key = await createKey(app);
  });

  afterAll(async () => {
    await proxy.restore();
    await app.close();
    await proxy.stop();
  });

  it('serves through the proxy', async () => {
    await search().expect(200);
  });

  it('answers 503 with Retry-After at once when the server refuses connections, then recovers by itself', async () => {
    await search().expect(200);
    await proxy.refuse();
    await expectUnavailable();
    await expectUnavailable();
    await proxy.restore();
    await expectRecovery(5000);
  });

  // The steps added for issue 31 reach the database through their own statements: a category's
  // points of interest, a region named in the query, the last resorts after a misspelling.
  it('answers 503, never 500, on every text search path when the server refuses connections', async () => {
    await search().expect(200); // the key is now known without the database
    await proxy.refuse();
    for (const query of [
      'restaurant in Vaduz',
      'Outage Lane, Liechtenstein',
      'Springfield, Illinois',
      'Made in Italy', // a country named: the whole query looked up as a place's name
      'Schloss Vaduz', // a category word: the whole query looked up as a place's name first
      'Herrengasse 35 Vaduz', // an address named: the records viewing it
      'Outaeg Lnae',
      'qzxwv',
    ]) {
      const res = await request(app.getHttpServer()).post('/search').set('x-api-key', key).send({ query });
      expect({ query, status: res.status, code: res.body?.error?.code }).toEqual({
        query,
        status: 503,
        code: 'DATABASE_UNAVAILABLE',
      });
    }
    await proxy.restore();
    await expectRecovery(5000);
  });

  // Map tiles read the data version and then draw the tile: both statements fail as unavailable.
  it('answers 503, never 500, for a map tile when the server refuses connections', async () => {
    const tile = () => request(app.getHttpServer()).get('/tiles/16/34501/23013.mvt');
    expect((await tile()).status).toBe(200);
    await proxy.refuse();
    const res = await tile();
    expect({ status: res.status, code: res.body?.error?.code }).toEqual({ status: 503, code: 'DATABASE_UNAVAILABLE' });
    await proxy.restore();
    await expectRecovery(5000);
  });

  // An image URL looks its record's photo up (no cache holds an id never served): unavailable is a 503.
  it('answers 503, never 500, for an image or a view when the server refuses connections', async () => {
    const id = 'c0ffee00-0000-4000-8000-000000000001';
    expect((await request(app.getHttpServer()).get(`/images/${id}/sd.jpg`)).status).toBe(404);
    await proxy.refuse();
    for (const path of [`/images/${id}/sd.jpg`, `/images/${id}/view.jpg`]) {
      const res = await request(app.getHttpServer()).get(path);
      expect({ path, status: res.status, code: res.body?.error?.code }).toEqual({
        path,
        status: 503,
        code: 'DATABASE_UNAVAILABLE',
      });
    }
    await proxy.restore();
    await expectRecovery(5000);
  });

  // One record by id and the includes that read other rows (its sequence, its history): each its own statement.
  it('answers 503, never 500, for a record by id and for the sequence and history includes', async () => {
    await search().expect(200); // the key is now known without the database
    await proxy.refuse();
    const byId = await request(app.getHttpServer())
      .get('/images/c0ffee00-0000-4000-8000-000000000001?include=sequence,history')
      .set('x-api-key', key);
    const page = await request(app.getHttpServer())
      .post('/search')
      .set('x-api-key', key)
      .send({
        near: { lat: 47.14, lon: 9.52, radius_m: 500 },
        newest_per_spot: true,
        include: ['sequence', 'history'],
      });
    for (const res of [byId, page]) {
      expect({ status: res.status, code: res.body?.error?.code }).toEqual({
        status: 503,
        code: 'DATABASE_UNAVAILABLE',
      });
    }
    await proxy.restore();
    await expectRecovery(5000);
  });

  it('never hangs when the network path goes silent (connect and read timeouts), then recovers by itself', async () => {
    await search().expect(200);
    await proxy.blackhole();
    // The first request waits out the read timeout on the pooled connection; later ones the connect timeout.
    for (let i = 0; i < 3; i++) await expectUnavailable();
    await proxy.restore();
    await expectRecovery(10_000);
  });

  it('a failing API-key lookup is a 503, never a 401 or 500; a missing key still needs no database', async () => {
    await proxy.refuse();
    try {
      await expectUnavailable('lis_not-a-real-key-000000000000000000000000');
      await expectUnavailable(key);
      const res = await request(app.getHttpServer()).post('/search').send({ query: 'Outage Lane' });
      expect(res.status).toBe(401);
      expect(res.body.error.code).toBe('MISSING_API_KEY');
    } finally {
      await proxy.restore();
    }
    await expectRecovery(5000);
  });

  it('answers concurrent requests during an outage without piling up', async () => {
    await proxy.blackhole();
    try {
      const started = Date.now();
      const results = await Promise.all(Array.from({ length: 12 }, () => search()));
      expect(results.map((r) => r.status)).toEqual(Array(12).fill(503));
      // 12 requests on a pool of 4: waiting for a connection is bounded by the same connect timeout.
      expect(Date.now() - started).toBeLessThan(WORST_CASE_MS * 2);
    } finally {
      await proxy.restore();
    }
    await expectRecovery(10_000);
  });
});
