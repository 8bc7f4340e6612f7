import { NestExpressApplication } from '@nestjs/platform-express';
import { Client } from 'pg';
import request from 'supertest';
import { createKey, feature, importFixture, resetImagery, startApp } from '../helpers/test-app';
import { currentKind } from '../setup/test-database';

const DEADLINE_MS = 1500;
// Answered no earlier than the deadline and at most this much later (a busy machine).
const MARGIN_MS = 1000;

// A search under a table lock waits for it statement after statement; the statement timeout is set far
// above the deadline here, so only the deadline can answer in time.
// Server only: the built-in database serves every connection from one session, where another
// connection's lock holds nothing up (and a CancelRequest is not taken).
const serverOnly = currentKind() === 'server' ? describe : describe.skip;

serverOnly('the deadline of a search (SEARCH_DEADLINE_MS)', () => {
  let app: NestExpressApplication;
  let key: string;
  let locker: Client;
  let admin: Client;
  const search = () =>
    request(app.getHttpServer()).post('/search').set('x-api-key', key).send({ query: 'Deadline Drive' });
  const waitingForLocks = async () =>
    (
      await admin.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM pg_stat_activity
         WHERE datname = current_database() AND wait_event_type = 'Lock' AND pid <> pg_backend_pid()`,
      )
    ).rows[0].n;

  beforeAll(async () => {
    await resetImagery();
    await importFixture([feature('Deadline Drive 1')]);
    app = await startApp({ searchDeadlineMs: DEADLINE_MS, dbStatementTimeoutMs: 30_000, dbPoolSize: 2 });
    key = await createKey(app);
    locker = new Client({ connectionString: process.env.DATABASE_URL });
    admin = new Client({ connectionString: process.env.DATABASE_URL });
    await locker.connect();
    await admin.connect();
  });

  afterAll(async () => {
    await locker.query('ROLLBACK').catch(() => undefined);
    await locker.end();
    await admin.end();
    await app.close();
  });

  it('answers in time while nothing holds it up', async () => {
    const res = await search().expect(200);
    expect(res.body.data.map((r: { address: string }) => r.address)).toEqual(['Deadline Drive 1']);
  });

  it('answers 503 with Retry-After at the deadline while a lock holds the table, cancels its statements, and answers again once the lock is gone', async () => {
    await locker.query('BEGIN');
    await locker.query('LOCK TABLE imagery IN ACCESS EXCLUSIVE MODE');
    try {
      // More searches than pooled connections: some wait for the lock, the others for a connection.
      const started = Date.now();
      const answers = await Promise.all(
        Array.from({ length: 5 }, () => search().then((res) => ({ res, ms: Date.now() - started }))),
      );
      for (const { res, ms } of answers) {
        expect(res.status).toBe(503);
        expect(res.body).toEqual({
          isSuccess: false,
          error: { code: 'DATABASE_UNAVAILABLE', message: expect.stringContaining(`${DEADLINE_MS} ms`) },
        });
        expect(res.headers['retry-after']).toBe('5');
        expect(res.headers['cache-control']).toBe('no-store');
        expect(ms).toBeGreaterThanOrEqual(DEADLINE_MS - 50);
        expect(ms).toBeLessThan(DEADLINE_MS + MARGIN_MS);
      }
      // Their statements were cancelled: none is still waiting for the lock.
      const until = Date.now() + 2000;
      while ((await waitingForLocks()) > 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
      expect(await waitingForLocks()).toBe(0);
    } finally {
      await locker.query('ROLLBACK');
    }
    const res = await search().expect(200);
    expect(res.body.data).toHaveLength(1);
  });

  // The other routes that search, each answering the deadline in its own error shape.
  const server = () => request(app.getHttpServer());
  it.each<[string, () => request.Test, (res: request.Response) => void]>([
    [
      'the STAC item search by free text',
      () => server().get('/stac/search?q=Deadline%20Drive').set('x-api-key', key),
      (res) => {
        expect(res.status).toBe(503);
        expect(res.body).toEqual({ code: 'DATABASE_UNAVAILABLE', description: expect.stringContaining('ms') });
      },
    ],
    [
      'the STAC item search by POST',
      () =>
        server()
          .post('/stac/search')
          .set('x-api-key', key)
          .send({ bbox: [9, 47, 10, 48] }),
      (res) => expect([res.status, res.body.code]).toEqual([503, 'DATABASE_UNAVAILABLE']),
    ],
    [
      "a STAC collection's items",
      () => server().get('/stac/collections/unsourced/items').set('x-api-key', key),
      (res) => expect([res.status, res.body.code]).toEqual([503, 'DATABASE_UNAVAILABLE']),
    ],
    [
      'the Street View metadata (200 and UNKNOWN_ERROR, as Google answers)',
      () => server().get(`/maps/api/streetview/metadata?location=47.14,9.52&key=${key}`),
      (res) => expect([res.status, res.body.status]).toEqual([200, 'UNKNOWN_ERROR']),
    ],
  ])('ends %s at the deadline while a lock holds the table', async (_name, send, check) => {
    await send().expect(200); // answered while nothing holds it up
    await locker.query('BEGIN');
    await locker.query('LOCK TABLE imagery IN ACCESS EXCLUSIVE MODE');
    try {
      const started = Date.now();
      const res = await send();
      const ms = Date.now() - started;
      check(res);
      expect(ms).toBeGreaterThanOrEqual(DEADLINE_MS - 50);
      expect(ms).toBeLessThan(DEADLINE_MS + MARGIN_MS);
    } finally {
      await locker.query('ROLLBACK');
    }
  });
});
