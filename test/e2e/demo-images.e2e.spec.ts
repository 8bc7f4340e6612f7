import { ImageryRepository } from '../../src/imagery/imagery.repository';
import { DEMO_SOURCE } from '../../src/seed/demo-dataset';
import { ContractProxy, startContractProxy } from '../helpers/contract';
import { listen, rawRequest } from '../helpers/raw-http';
import { feature, importFixture, resetImagery, startApp } from '../helpers/test-app';

const DEMO_ID = 'd0000000-0000-4000-8000-000000000001';
const CATALOGUE_ID = 'd0000000-0000-4000-8000-000000000002';
const UNSOURCED_ID = 'd0000000-0000-4000-8000-000000000003';
const NOT_FOUND = { isSuccess: false, error: { code: 'NOT_FOUND', message: 'No such demo image' } };

// GET /demo-images/{id}.svg needs no key, so it draws demo-seed records only, per client address
// limits, and does not go to the database for what it has drawn before.
describe('GET /demo-images/:id.svg', () => {
  beforeAll(async () => {
    await resetImagery();
    await importFixture(
      [feature('Demo Street 1, Springfield', { id: DEMO_ID, captured_at: '2015-09-10' })],
      DEMO_SOURCE,
    );
    await importFixture([feature('Operator Lane 7, Private Town', { id: CATALOGUE_ID })], 'city-catalogue');
    await importFixture([feature('Unsourced Road 3, Elsewhere', { id: UNSOURCED_ID })]);
  });

  describe('what it draws', () => {
    let contract: ContractProxy;
    const svg = (path: string) =>
      contract.http
        .get(path)
        .buffer(true)
        .parse((r, done) => {
          let text = '';
          r.on('data', (chunk: Buffer) => (text += chunk.toString()));
          r.on('end', () => done(null, text));
        });
    beforeAll(async () => {
      contract = await startContractProxy(await startApp());
    });
    afterEach(() => expect(contract.takeViolations()).toEqual([]));
    afterAll(() => contract.close());

    it('draws a placeholder for a demo-seed record', async () => {
      const res = await svg(`/demo-images/${DEMO_ID}.svg`).expect(200);
      expect(res.headers['content-type']).toMatch(/^image\/svg\+xml/);
      expect(res.body).toContain('Demo Street 1, Springfield');
      expect(res.body).toContain('September 10, 2015');
      expect(res.headers['ratelimit-policy']).toBe('"demo-images";q=300;w=60');
    });

    it("404s for any other record (an operator's catalogue is not public), unknown ids and non-ids alike", async () => {
      for (const id of [CATALOGUE_ID, UNSOURCED_ID, '00000000-0000-4000-8000-000000000000']) {
        const res = await contract.http.get(`/demo-images/${id}.svg`).expect(404);
        expect(res.body).toEqual(NOT_FOUND);
        expect(JSON.stringify(res.body)).not.toMatch(/Operator Lane|Unsourced Road/);
      }
      // Outside the documented parameter pattern: straight to the app (the proxy would refuse the request itself).
      const path = '/demo-images/not-a-uuid.svg';
      const odd = await contract.direct.get(path).expect(404);
      contract.checkDirect('GET', path, odd);
      expect(odd.body).toEqual(NOT_FOUND);
    });
  });

  it('looks each id up once, then answers from its cache (drawings and misses alike)', async () => {
    const app = await startApp();
    const port = await listen(app);
    try {
      const lookups = jest.spyOn(app.get(ImageryRepository), 'findForDemoImage');
      const answers = await Promise.all(
        [DEMO_ID, DEMO_ID, CATALOGUE_ID, DEMO_ID, CATALOGUE_ID, DEMO_ID].map((id) =>
          rawRequest(port, { method: 'GET', path: `/demo-images/${id}.svg` }),
        ),
      );
      expect(answers.map((r) => r.status)).toEqual([200, 200, 404, 200, 404, 200]);
      expect(new Set(answers.filter((r) => r.status === 200).map((r) => r.text)).size).toBe(1);
      expect(lookups.mock.calls.map(([id]) => id).sort()).toEqual([CATALOGUE_ID, DEMO_ID].sort());
    } finally {
      await app.close();
    }
  });

  it('limits requests per client address with the RateLimit fields, then 429 with Retry-After', async () => {
    // Behind a trusted proxy on loopback, X-Forwarded-For names the client.
    const app = await startApp({ demoImagesPerMinute: 3, trustProxy: ['loopback'] });
    const port = await listen(app);
    const get = (client: string, id = DEMO_ID) =>
      rawRequest(port, { method: 'GET', path: `/demo-images/${id}.svg`, headers: { 'x-forwarded-for': client } });
    try {
      const first = [await get('203.0.113.7'), await get('203.0.113.7', CATALOGUE_ID), await get('203.0.113.7')];
      expect(first.map((r) => r.status)).toEqual([200, 404, 200]);
      expect(first.map((r) => /r=(\d+)/.exec(String(r.headers.ratelimit))?.[1])).toEqual(['2', '1', '0']);
      const limited = await get('203.0.113.7');
      expect(limited.status).toBe(429);
      expect(limited.json).toEqual({
        isSuccess: false,
        error: { code: 'RATE_LIMITED', message: expect.stringMatching(/3 per minute/) },
      });
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
      expect(limited.headers['ratelimit-policy']).toBe('"demo-images";q=3;w=60');
      // Another address has its own count.
      expect((await get('198.51.100.20')).status).toBe(200);
    } finally {
      await app.close();
    }
  });
});
