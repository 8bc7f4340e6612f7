import { NestExpressApplication } from '@nestjs/platform-express';
import { ApiKeyService } from '../../src/api-key/api-key.service';
import { ContractProxy, startContractProxy } from '../helpers/contract';
import { ids, relevanceFixture } from '../helpers/fixtures';
import { createKey, feature, importFixture, resetImagery, startApp } from '../helpers/test-app';

const RESPONSE_KEYS = ['data', 'isSuccess', 'page', 'pageTotal', 'region', 'region_id', 'result_id'];
const RECORD_KEYS = ['address', 'compass', 'date', 'geometry', 'id', 'image', 'interactive'];
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('POST /search', () => {
  let app: NestExpressApplication;
  let contract: ContractProxy;
  let key: string;
  // Through Prism: every response is checked against the OpenAPI document.
  const api = () => contract.http;
  const search = (body: unknown) => api().post('/search').set('x-api-key', key).send(body as object);

  beforeAll(async () => {
    await resetImagery();
    await importFixture([
      ...relevanceFixture(),
      feature('Pagination Way 1', { image_url: 'relative/one.jpg' }),
      ...Array.from({ length: 24 }, (_, i) => feature(`Pagination Way ${i + 2}`)),
    ]);
    app = await startApp();
    key = await createKey(app);
    contract = await startContractProxy(app);
  });

  afterEach(() => expect(contract.takeViolations()).toEqual([]));
  afterAll(() => contract.close());

  describe('the contract', () => {
    it('answers with exactly the contract keys and types', async () => {
      const res = await search({ query: 'Herrengasse 35', limit: 5, page: 1 }).expect(200);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(Object.keys(res.body).sort()).toEqual(RESPONSE_KEYS);
      expect(res.body).toMatchObject({ isSuccess: true, page: 1, region: 'global', region_id: null });
      expect(res.body.result_id).toMatch(UUID);
      expect(res.body.pageTotal).toBe(1);
      for (const r of res.body.data) {
        expect(Object.keys(r).sort()).toEqual(RECORD_KEYS);
        expect(r.id).toMatch(UUID);
        expect(typeof r.address).toBe('string');
        expect(r.date).toMatch(/^(January|February|March|April|May|June|July|August|September|October|November|December) [1-9]\d?, \d{4}$/);
        expect(r.compass).toMatch(/^Facing (North|Northeast|East|Southeast|South|Southwest|West|Northwest) \((N|NE|E|SE|S|SW|W|NW)\)$/);
        expect(typeof r.interactive).toBe('boolean');
        expect(Object.keys(r.geometry).sort()).toEqual(['coordinates', 'type']);
        expect(r.geometry.type).toBe('Point');
        expect(r.geometry.coordinates).toHaveLength(2);
        expect(r.image).toMatch(/^https?:\/\//);
      }
    });

    it('formats the stored heading and date (273.1 and 2015-09-10)', async () => {
      const res = await search({ query: 'Herrengasse 35, 9490 Vaduz' }).expect(200);
      expect(res.body.data[0]).toMatchObject({
        id: ids.herrengasse35,
        address: 'Herrengasse 35, 9490 Vaduz',
        date: 'September 10, 2015',
        compass: 'Facing West (W)',
        geometry: { type: 'Point', coordinates: [9.52, 47.14] },
      });
    });

    it('joins relative image paths to IMAGE_BASE_URL', async () => {
      const res = await search({ query: 'Pagination Way 1', limit: 1 }).expect(200);
      expect(res.body.data[0].image).toBe('https://img.test/relative/one.jpg');
    });

    it('defaults limit to 10 and page to 1', async () => {
      const res = await search({ query: 'Pagination Way' }).expect(200);
      expect(res.body.page).toBe(1);
      expect(res.body.data).toHaveLength(10);
      expect(res.body.pageTotal).toBe(3);
    });

    it('answers no match with an empty page and pageTotal 0', async () => {
      const res = await search({ query: 'Nowhere Qqqxz', page: 2 }).expect(200);
      expect(res.body).toMatchObject({ page: 2, pageTotal: 0, data: [] });
    });
  });

  describe('understanding, filters and opt-in detail', () => {
    it('adds exactly the fields asked for with include, and nothing by default', async () => {
      const plain = await search({ query: 'Herrengasse 35, 9490 Vaduz', near: { lat: 47.14, lon: 9.52 } }).expect(200);
      expect(Object.keys(plain.body).sort()).toEqual(RESPONSE_KEYS);
      expect(Object.keys(plain.body.data[0]).sort()).toEqual(RECORD_KEYS);

      const res = await search({
        query: 'Herrengasse 35, 9490 Vaduz',
        near: { lat: 47.14, lon: 9.52 },
        include: ['captured_at', 'heading', 'distance_m', 'score', 'total', 'interpretation'],
      }).expect(200);
      expect(Object.keys(res.body).sort()).toEqual([...RESPONSE_KEYS, 'interpretation', 'total', 'total_exact'].sort());
      expect(res.body).toMatchObject({ total: 1, total_exact: true, interpretation: { kind: 'text', normalized: 'herrengasse 35 9490 vaduz' } });
      expect(res.body.data[0]).toMatchObject({ id: ids.herrengasse35, captured_at: '2015-09-10', heading: 273.1, distance_m: 0 });
      expect(Object.keys(res.body.data[0]).sort()).toEqual([...RECORD_KEYS, 'captured_at', 'distance_m', 'heading', 'score'].sort());
      expect(typeof res.body.data[0].score).toBe('number');
      expect(res.body.result_id).toBe(plain.body.result_id);
    });

    it('searches around coordinates and says how it read them', async () => {
      const res = await search({ query: `47°08'24"N 9°31'12"E`, limit: 100, include: ['interpretation', 'distance_m'] }).expect(200);
      expect(res.body.interpretation).toEqual({ kind: 'coordinates', normalized: '47.14,9.52', lat: 47.14, lon: 9.52 });
      expect(res.body.data.length).toBeGreaterThan(0);
      for (const r of res.body.data) expect(r.distance_m).toBeLessThanOrEqual(250);
    });

    it('searches without a query when near, bbox or looking_at says where', async () => {
      await search({ near: { lat: 47.14, lon: 9.52, radius_m: 10 } }).expect(200);
      await search({ bbox: [9.5, 47.1, 9.6, 47.2], sort: 'oldest' }).expect(200);
      const res = await search({ looking_at: { lat: 47.14, lon: 9.52 }, interactive: false, facing: 'W' }).expect(200);
      expect(res.body.data.every((r: { compass: string; interactive: boolean }) => r.compass === 'Facing West (W)' && !r.interactive)).toBe(true);
    });

    it('gives filters and sort their own result_id, shared by every page', async () => {
      const base = { query: 'pagination way', limit: 7 };
      const a = await search({ ...base, captured_after: '2019-01-01' }).expect(200);
      const b = await search({ ...base, captured_after: '2019-01-01', page: 2 }).expect(200);
      const c = await search({ ...base, sort: 'newest' }).expect(200);
      const plain = await search(base).expect(200);
      expect(a.body.result_id).toBe(b.body.result_id);
      expect(new Set([a.body.result_id, c.body.result_id, plain.body.result_id]).size).toBe(3);
    });

    it('answers garbage with 200 and nothing', async () => {
      for (const query of ['%#$@*&l;der#$!', '🙈🙉🙊', "' OR '1'='1"]) {
        const res = await search({ query, include: ['interpretation'] }).expect(200);
        expect(res.body).toMatchObject({ isSuccess: true, pageTotal: 0, data: [], interpretation: { kind: 'text', normalized: '' } });
      }
    });

    it.each([
      [{ query: '91.5, 9.2' }, 'INVALID_COORDINATES', 'query', /latitude 91.5 is out of range/],
      [{ query: '9G8F+6X' }, 'INVALID_PLUS_CODE', 'query', /short plus code/],
      [{ query: 'Vaduz', sort: 'distance' }, 'INVALID_SORT', 'sort', /sort distance needs a point/],
      [{ bbox: [9, 47, 10, 48], sort: 'relevance' }, 'INVALID_SORT', 'sort', /sort relevance needs a query/],
      [{ query: 'Vaduz', include: ['everything'] }, 'INVALID_REQUEST', 'include', /include has unknown name "everything"/],
      [{ query: 'Vaduz', near: { lat: 47, lon: 9, radius_m: 60_000 } }, 'INVALID_REQUEST', 'near.radius_m', /between 1 and 50000/],
      [{ query: 'Vaduz', bbox: [10, 47, 9, 46] }, 'INVALID_REQUEST', 'bbox', /minLat must be less than maxLat/],
      [{ interactive: true }, 'INVALID_REQUEST', 'query', /query is required unless near, bbox or looking_at is given/],
      [{ query: 'Vaduz', facing: 'N', heading: { min: 0, max: 10 } }, 'INVALID_REQUEST', 'heading', /either facing or heading/],
    ])('400 for %j', async (body, code, field, message) => {
      const res = await search(body).expect(400);
      expect(res.body).toEqual({
        isSuccess: false,
        error: { code, message: expect.stringMatching(message), details: [expect.objectContaining({ field })] },
      });
    });
  });

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
      expect(res.body).toEqual({ isSuccess: false, error: { code: 'MALFORMED_JSON', message: 'Request body is not valid JSON' } });
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

describe('GET /demo-images/:id.svg', () => {
  let contract: ContractProxy;
  const api = () => contract.http;
  beforeAll(async () => {
    contract = await startContractProxy(await startApp());
  });
  afterEach(() => expect(contract.takeViolations()).toEqual([]));
  afterAll(() => contract.close());

  it('draws a placeholder for a record and 404s for unknown ids', async () => {
    const res = await api()
      .get(`/demo-images/${ids.herrengasse35}.svg`)
      .buffer(true)
      .parse((r, done) => {
        let text = '';
        r.on('data', (chunk: Buffer) => (text += chunk.toString()));
        r.on('end', () => done(null, text));
      })
      .expect(200);
    expect(res.headers['content-type']).toMatch(/^image\/svg\+xml/);
    expect(res.body).toContain('Herrengasse 35, 9490 Vaduz');
    expect(res.body).toContain('September 10, 2015');
    await api().get('/demo-images/00000000-0000-4000-8000-000000000000.svg').expect(404);
    await api().get('/demo-images/not-a-uuid.svg').expect(404);
  });
});
