import { ApiKeyService } from '../../src/api-key/api-key.service';
import { ContractProxy, startContractProxy } from '../helpers/contract';
import { createKey, startApp } from '../helpers/test-app';

describe('opt-in fields against the document', () => {
  let contract: ContractProxy;
  let key: string;
  beforeAll(async () => {
    const app = await startApp();
    key = await createKey(app);
    contract = await startContractProxy(app);
  });
  afterEach(() => expect(contract.takeViolations()).toEqual([]));
  afterAll(() => contract.close());

  it('validates every include, and a null interpretation when there is no query', async () => {
    const include = ['captured_at', 'heading', 'distance_m', 'score', 'total', 'interpretation'];
    const res = await contract.http
      .post('/search')
      .set('x-api-key', key)
      .send({ near: { lat: 47.14, lon: 9.52, radius_m: 1000 }, include })
      .expect(200);
    expect(res.body).toMatchObject({ interpretation: null, total_exact: true });
    const text = await contract.http
      .post('/search')
      .set('x-api-key', key)
      .send({ query: 'Vaduz', include })
      .expect(200);
    expect(text.body.interpretation).toMatchObject({ kind: 'text' });
  });
});

describe('rate limits against the document', () => {
  it('answers 429 RATE_LIMITED with Retry-After and the RateLimit fields as documented', async () => {
    const app = await startApp();
    const contract = await startContractProxy(app);
    try {
      const { key } = await app.get(ApiKeyService).create('one-a-minute', 1);
      const ok = await contract.http.post('/search').set('x-api-key', key).send({ query: 'Vaduz' }).expect(200);
      expect(ok.headers['ratelimit-policy']).toBe('"per-key";q=1;w=60');
      const limited = await contract.http.post('/search').set('x-api-key', key).send({ query: 'Vaduz' }).expect(429);
      expect(limited.body.error.code).toBe('RATE_LIMITED');
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
      expect(contract.takeViolations()).toEqual([]);
    } finally {
      await contract.close();
    }
  });
});

describe('the contract harness itself', () => {
  let contract: ContractProxy;
  let key: string;

  beforeAll(async () => {
    const app = await startApp();
    key = await createKey(app);
    // A document the real app cannot satisfy: a region it never returns, error messages of at most
    // 3 characters, and no 400 response.
    contract = await startContractProxy(app, (document) => {
      document.components.schemas.SearchResponseDto.properties.region.enum = ['mars'];
      document.components.schemas.ErrorInfoDto.properties.message.maxLength = 3;
      delete document.paths['/search'].post.responses['400'];
    });
  });
  afterAll(() => contract.close());

  it('fails a response body that breaks the document', async () => {
    await contract.http.post('/search').set('x-api-key', key).send({ query: 'Vaduz' });
    expect(contract.takeViolations().join('\n')).toMatch(/region/);
  });

  it('fails an error response that breaks the document', async () => {
    await contract.http.post('/search').set('x-api-key', 'lis_wrong_key_0000000000000000').send({ query: 'Vaduz' });
    expect(contract.takeViolations().join('\n')).toMatch(/message must NOT have more than 3 characters/);
  });

  it('fails a status code the document does not list', async () => {
    await contract.http.post('/search').set('x-api-key', key).send({ query: 'Vaduz', limit: 0 }).expect(400);
    expect(contract.takeViolations().join('\n')).toMatch(/Unable to match the returned status code/);
  });

  // A schema the validator cannot compile is silently treated as valid; make sure none is.
  it('every documented JSON response schema rejects a body that is not an object', async () => {
    const doc = (await contract.direct.get('/openapi.json').expect(200)).body;
    let checked = 0;
    for (const [path, item] of Object.entries<any>(doc.paths)) {
      for (const [method, operation] of Object.entries<any>(item)) {
        for (const [status, response] of Object.entries<any>(operation.responses)) {
          if (!response.content?.['application/json']) continue;
          const fake = {
            status: Number(status),
            headers: { 'content-type': 'application/json' },
            body: 'not an object',
          };
          contract.checkDirect(method, path.replace(/\{[^}]+\}/g, 'x'), fake as any);
          expect({ path, method, status, rejected: contract.takeViolations().length > 0 }).toEqual({
            path,
            method,
            status,
            rejected: true,
          });
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThanOrEqual(12);
  });

  it('fails a direct response that breaks the error shape', async () => {
    const res = await contract.direct.get('/nope').expect(404);
    contract.checkDirect('GET', '/nope', { ...res, body: { isSuccess: false, error: { code: 'NOT_FOUND' } } } as any);
    expect(contract.takeViolations().join('\n')).toMatch(/must have required property 'message'/);
  });
});
