import { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import { ApiKeyChanges } from '../../src/api-key/api-key-changes';
import { ApiKeyService } from '../../src/api-key/api-key.service';
import { ContractProxy } from '../helpers/contract';
import { currentKind } from '../setup/test-database';
import { createKey, startApp } from '../helpers/test-app';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

// One Prism for the file; each describe attaches its own app (contract.use) and close() closes them all.
const contract = new ContractProxy();
afterEach(() => expect(contract.takeViolations()).toEqual([]));
afterAll(() => contract.close());

describe('request logs', () => {
  let key: string;
  const lines: string[] = [];
  const logs = () => lines.map((l) => JSON.parse(l));
  const requestLog = async (id: string) => {
    // Written when the response finishes; allow the event a moment to land.
    for (let i = 0; i < 50; i++) {
      const found = logs().filter((l) => l.req?.id === id && l.msg === 'request completed');
      if (found.length > 0) return found;
      await new Promise((r) => setTimeout(r, 20));
    }
    return [];
  };

  let app: NestExpressApplication;
  // A BOOTSTRAP_API_KEY need not look like a generated key: nothing in it says "key".
  const bootstrapKey = `Deploy.Token-${Date.now()}:QWxhZGRpbjpvcGVuIHNlc2FtZQ`;

  beforeAll(async () => {
    app = await startApp(
      { logLevel: 'info', bootstrapApiKey: bootstrapKey },
      { logDestination: { write: (line: string) => lines.push(line) } },
    );
    await app.get(ApiKeyService).register(bootstrapKey, 'bootstrap'); // as main.ts does at start
    key = await createKey(app);
    await contract.use(app);
  });

  it('writes one JSON line per request with id, method, route, status, duration and the key prefix', async () => {
    const res = await contract.http
      .post('/search')
      .set('x-api-key', key)
      .set('x-request-id', 'client-req-0001')
      .set('authorization', 'Bearer some-secret-token')
      .send({ query: 'Vaduz' })
      .expect(200);
    expect(res.headers['x-request-id']).toBe('client-req-0001');
    const found = await requestLog('client-req-0001');
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({
      level: 'info',
      req: { id: 'client-req-0001', method: 'POST', url: '/search' },
      res: { statusCode: 200 },
      route: '/search',
      durationMs: expect.any(Number),
      apiKeyPrefix: key.slice(0, 12),
    });
  });

  it('never logs the API key or the Authorization header', async () => {
    await contract.http
      .post('/search')
      .set('x-api-key', key)
      .set('authorization', 'Bearer some-secret-token')
      .send({ query: 'Vaduz' })
      .expect(200);
    await contract.http
      .post('/search')
      .set('x-api-key', 'lis_an-unknown-key-that-is-secret-too')
      .send({ query: 'Vaduz' })
      .expect(401);
    // A key pasted into X-Request-Id: not echoed, not used as req.id.
    const pasted = await contract.http
      .post('/search')
      .set('x-api-key', key)
      .set('x-request-id', key)
      .send({ query: 'Vaduz' })
      .expect(200);
    expect(pasted.headers['x-request-id']).toMatch(UUID);
    expect(await requestLog(pasted.headers['x-request-id'])).toHaveLength(1);
    await new Promise((r) => setTimeout(r, 50));
    const all = lines.join('\n');
    expect(all).not.toContain(key);
    expect(all).not.toContain(key.slice(12));
    expect(all).not.toContain('some-secret-token');
    expect(all).not.toContain('an-unknown-key-that-is-secret-too');
    const redacted = logs().filter((l) => l.req?.headers?.['x-api-key']);
    expect(redacted.length).toBeGreaterThanOrEqual(2);
    for (const l of redacted) expect(l.req.headers['x-api-key']).toBe('[Redacted]');
    expect(logs().some((l) => l.req?.headers?.authorization === '[Redacted]')).toBe(true);
  });

  it('generates a request id when none (or an unusable one) is sent, and returns it', async () => {
    for (const sent of [undefined, 'has spaces in it', 'x'.repeat(200)]) {
      const req = contract.http.post('/search').set('x-api-key', key).send({ query: 'Vaduz' });
      if (sent) req.set('x-request-id', sent);
      const res = await req.expect(200);
      expect(res.headers['x-request-id']).toMatch(UUID);
      expect(await requestLog(res.headers['x-request-id'])).toHaveLength(1);
    }
  });

  it('logs refused requests too: a bad body on a route, and a path no route matches', async () => {
    const res = await contract.http
      .post('/search')
      .set('x-api-key', key)
      .set('content-type', 'text/plain')
      .send('Vaduz')
      .expect(415);
    const [line] = await requestLog(res.headers['x-request-id']);
    expect(line).toMatchObject({ res: { statusCode: 415 }, route: '/search', req: { method: 'POST', url: '/search' } });
    const lost = await contract.direct.get('/no/such/route').expect(404);
    contract.checkDirect('GET', '/no/such/route', lost);
    const [unmatched] = await requestLog(lost.headers['x-request-id']);
    expect(unmatched).toMatchObject({
      res: { statusCode: 404 },
      route: 'unmatched',
      req: { method: 'GET', url: '/no/such/route' },
    });
  });

  it('logs health probes and scrapes at debug level only', async () => {
    const res = await contract.http.get('/health/live').expect(200);
    await contract.http.post('/search').set('x-api-key', key).send({ query: 'Vaduz' }).expect(200);
    await new Promise((r) => setTimeout(r, 50));
    expect(logs().filter((l) => l.req?.id === res.headers['x-request-id'])).toEqual([]);
  });

  const searchWith = async (headers: Record<string, string>, path = '/search') => {
    const res = await request(app.getHttpServer())
      .post(path)
      .set('x-api-key', key)
      .set(headers)
      .send({ query: 'Vaduz' });
    expect(res.status).toBe(200);
    const id: string = res.headers['x-request-id'];
    expect(await requestLog(id)).toHaveLength(1);
    return id;
  };
  const logged = (secret: string) => ({ secret, logged: lines.join('\n').includes(secret) });

  it('redacts a key of any form wherever it is sent: a bootstrap key of its own form, the secret part of a key', async () => {
    const secretPart = key.slice('lis_'.length);
    const path = `/search?ref=${encodeURIComponent(secretPart)}&from=${bootstrapKey}`;
    const asRequestId = await searchWith({ 'x-request-id': bootstrapKey }, path);
    expect(asRequestId).toMatch(UUID); // neither echoed nor used as the request id
    const trace = await searchWith({ 'x-trace': secretPart }, path);
    await searchWith({ 'x-forwarded-for': `10.0.0.1, ${bootstrapKey}` }, path);
    await searchWith({ 'x-debug': `Bearer ${secretPart}` }, path);
    for (const secret of [bootstrapKey, secretPart, encodeURIComponent(secretPart)]) {
      expect(logged(secret)).toEqual({ secret, logged: false });
    }
    const [line] = await requestLog(trace);
    expect(line.req.headers['x-trace']).toBe('[Redacted]');
    expect(line.req.query).toEqual({ ref: '[Redacted]', from: '[Redacted]' });
  });

  // Server only: a key made by another process is heard through the database (api-key-changes.ts).
  (currentKind() === 'server' ? it : it.skip)(
    'redacts a key made by another server from the moment it is made',
    async () => {
      const other = await startApp({ logLevel: 'silent' });
      try {
        for (let i = 0; i < 500 && !app.get(ApiKeyChanges).listening; i++) await new Promise((r) => setTimeout(r, 20));
        expect(app.get(ApiKeyChanges).listening).toBe(true);
        const elsewhere = await createKey(other, 'made-elsewhere');
        const secretPart = elsewhere.slice('lis_'.length);
        await searchWith({ 'x-client': elsewhere });
        await searchWith({ 'x-client': secretPart }, `/search?q=${secretPart}`);
        expect(logged(secretPart)).toEqual({ secret: secretPart, logged: false });
      } finally {
        await other.close();
      }
    },
  );
});
