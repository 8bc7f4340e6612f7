import { NestExpressApplication } from '@nestjs/platform-express';
import { ApiKeyService } from '../../src/api-key/api-key.service';
import { ContractProxy } from '../helpers/contract';
import { startSearchApi } from '../helpers/search-api';

describe('POST /search', () => {
  let app: NestExpressApplication;
  let contract: ContractProxy;
  let key: string;
  // Through Prism: every response is checked against the OpenAPI document.
  const api = () => contract.http;
  const search = (body: unknown) =>
    api()
      .post('/search')
      .set('x-api-key', key)
      .send(body as object);

  beforeAll(async () => {
    ({ app, contract, key } = await startSearchApi());
  });

  afterEach(() => expect(contract.takeViolations()).toEqual([]));
  afterAll(() => contract.close());

  describe('pagination', () => {
    it('walks every match exactly once with the same result_id', async () => {
      const seen: string[] = [];
      const resultIds = new Set<string>();
      let pageTotal = 1;
      for (let page = 1; page <= pageTotal; page++) {
        const res = await search({ query: 'pagination way', limit: 7, page }).expect(200);
        pageTotal = res.body.pageTotal;
        resultIds.add(res.body.result_id);
        seen.push(...res.body.data.map((r: { id: string }) => r.id));
      }
      expect(pageTotal).toBe(4);
      expect(seen).toHaveLength(25);
      expect(new Set(seen).size).toBe(25);
      expect(resultIds.size).toBe(1);
    });

    it('gives the same result_id for the same normalized query', async () => {
      const a = await search({ query: 'Pagination  WAY ', limit: 7 }).expect(200);
      const b = await search({ query: 'pagination way', limit: 7, page: 3 }).expect(200);
      const c = await search({ query: 'pagination way', limit: 8 }).expect(200);
      expect(a.body.result_id).toBe(b.body.result_id);
      expect(c.body.result_id).not.toBe(a.body.result_id);
    });

    it('returns an empty page past the end with the true pageTotal', async () => {
      const res = await search({ query: 'pagination way', limit: 10, page: 9 }).expect(200);
      expect(res.body).toMatchObject({ page: 9, pageTotal: 3, data: [] });
    });
  });

  describe('authentication', () => {
    it('401 MISSING_API_KEY without a key', async () => {
      const res = await contract.direct.post('/search').send({ query: 'Vaduz' }).expect(401);
      contract.checkDirect('POST', '/search', res);
      expect(res.body).toEqual({ isSuccess: false, error: { code: 'MISSING_API_KEY', message: expect.any(String) } });
    });

    it('401 INVALID_API_KEY for an unknown key', async () => {
      const res = await api()
        .post('/search')
        .set('x-api-key', 'lis_not-a-real-key-000000000000000000000000')
        .send({ query: 'Vaduz' })
        .expect(401);
      expect(res.body.error.code).toBe('INVALID_API_KEY');
    });

    it('401 INVALID_API_KEY for an overlong key, without a database lookup', async () => {
      const res = await api().post('/search').set('x-api-key', 'x'.repeat(5000)).send({ query: 'Vaduz' });
      expect(res.status).toBe(401);
      expect(res.body.error.code).toBe('INVALID_API_KEY');
    });

    it('stops accepting a revoked key at once', async () => {
      const keys = app.get(ApiKeyService);
      const { key: doomed, record } = await keys.create('doomed');
      await api().post('/search').set('x-api-key', doomed).send({ query: 'Vaduz' }).expect(200);
      await keys.revoke(record.id);
      const res = await api().post('/search').set('x-api-key', doomed).send({ query: 'Vaduz' }).expect(401);
      expect(res.body.error.code).toBe('INVALID_API_KEY');
    });
  });

  describe('errors', () => {
    it('400 INVALID_REQUEST with per-field details', async () => {
      const res = await search({ query: 'Vaduz', limit: 0 }).expect(400);
      expect(res.body).toEqual({
        isSuccess: false,
        error: {
          code: 'INVALID_REQUEST',
          message: 'limit must be an integer between 1 and 100',
          details: [{ field: 'limit', message: 'limit must be an integer between 1 and 100' }],
        },
      });
    });

    it.each([
      [{ query: 'Vaduz', limit: '10' }],
      [{ query: 'Vaduz', page: 1.5 }],
      [{ query: 'Vaduz', limit: null }],
      [{ query: 'Vaduz', unknown: true }],
      [{ query: 'Vaduz', limit: 100, page: 101 }],
      [{ query: '' }],
      [['Vaduz']],
    ])('400 INVALID_REQUEST for %j', async (body) => {
      const res = await search(body).expect(400);
      expect(res.body.error.code).toBe('INVALID_REQUEST');
    });

    it('400 MALFORMED_JSON', async () => {
      const res = await contract.direct
        .post('/search')
        .set('x-api-key', key)
        .set('content-type', 'application/json')
        .send('{"query": "Vaduz",')
        .expect(400);
      contract.checkDirect('POST', '/search', res);
      expect(res.body).toEqual({
        isSuccess: false,
        error: { code: 'MALFORMED_JSON', message: 'Request body is not valid JSON' },
      });
    });

    it('400 for a JSON string instead of an object', async () => {
      const res = await contract.direct
        .post('/search')
        .set('x-api-key', key)
        .set('content-type', 'application/json')
        .send('"Vaduz"')
        .expect(400);
      contract.checkDirect('POST', '/search', res);
      expect(res.body.error.code).toBe('INVALID_REQUEST');
    });

    it('415 for a body that is not JSON', async () => {
      const res = await api()
        .post('/search')
        .set('x-api-key', key)
        .set('content-type', 'text/plain')
        .send('query=Vaduz')
        .expect(415);
      expect(res.body.error.code).toBe('UNSUPPORTED_MEDIA_TYPE');
    });

    it('413 for a body over 16 KB', async () => {
      const res = await search({ query: 'Vaduz', pad: 'x'.repeat(20_000) }).expect(413);
      expect(res.body.error.code).toBe('PAYLOAD_TOO_LARGE');
    });

    it('404 NOT_FOUND for unknown routes', async () => {
      const res = await contract.direct.get('/nope').expect(404);
      contract.checkDirect('GET', '/nope', res);
      expect(res.body).toEqual({ isSuccess: false, error: { code: 'NOT_FOUND', message: 'No such route' } });
    });

    it('405 for other methods on /search', async () => {
      const res = await contract.direct.get('/search').expect(405);
      contract.checkDirect('GET', '/search', res);
      expect(res.headers.allow).toBe('POST');
      expect(res.body.error.code).toBe('METHOD_NOT_ALLOWED');
    });

    it('treats SQL and tsquery syntax in the query as plain text', async () => {
      for (const query of ["'; DROP TABLE imagery; --", "a' & b:* | !c", '\\', '%_', '((((', '<->']) {
        const res = await search({ query }).expect(200);
        expect(res.body.isSuccess).toBe(true);
      }
      await search({ query: 'Herrengasse 35' }).expect(200);
    });

    it('never leaks internals in error bodies', async () => {
      const res = await search({ query: 'Vaduz', limit: 'x' }).expect(400);
      expect(JSON.stringify(res.body)).not.toMatch(/stack|node_modules|prisma|SELECT|at \w+ \(/i);
      expect(res.headers['x-powered-by']).toBeUndefined();
    });
  });
});
