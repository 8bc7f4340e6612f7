import http from 'node:http';
import { NestExpressApplication } from '@nestjs/platform-express';
import fc from 'fast-check';
import { ApiKeyService } from '../../src/api-key/api-key.service';
import { relevanceFixture } from '../helpers/fixtures';
import { listen, rawRequest } from '../helpers/raw-http';
import { importFixture, resetImagery, startApp } from '../helpers/test-app';
import { body, headerName, headerValue } from '../helpers/fuzz-inputs';

// Property-based fuzzing of POST /search on the live app: whatever arrives, the answer is one of the
// documented statuses in the documented shape, never a 5xx, and the app stays healthy.
// FUZZ_RUNS and FUZZ_SEED (printed on failure by fast-check) reproduce or extend a run.
const RUNS = Number(process.env.FUZZ_RUNS ?? 2000);
const ALLOWED = [200, 400, 401, 413, 415, 429];
const RESPONSE_KEYS = ['data', 'isSuccess', 'page', 'pageTotal', 'region', 'region_id', 'result_id'];

describe('fuzzing POST /search', () => {
  let app: NestExpressApplication;
  let port: number;
  let validKey: string;
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const logLines: string[] = [];

  beforeAll(async () => {
    await resetImagery();
    await importFixture(relevanceFixture());
    // Logged at info, kept here: the key must never reach a log line, however it is sent.
    app = await startApp(
      { authFailuresPerMinute: 1000, logLevel: 'info' },
      { logDestination: { write: (line: string) => logLines.push(line) } },
    );
    port = await listen(app);
    validKey = (await app.get(ApiKeyService).create('fuzz', 100_000)).key;
  });
  afterAll(async () => {
    agent.destroy();
    await app.close();
  });

  it(
    `answers ${RUNS} generated requests with a documented status and shape, never a 5xx`,
    async () => {
      const apiKey = fc.oneof(
        { arbitrary: fc.constant(validKey), weight: 12 },
        {
          arbitrary: fc.constantFrom(
            ` ${validKey}`,
            `${validKey}x`,
            'lis_not-a-real-key-000000000000000000000000',
            '',
            'k'.repeat(300),
          ),
          weight: 2,
        },
        { arbitrary: headerValue, weight: 1 },
        { arbitrary: fc.constant(undefined), weight: 1 },
      );
      const contentType = fc.oneof(
        { arbitrary: fc.constant('application/json'), weight: 14 },
        {
          arbitrary: fc.constantFrom(
            'application/json; charset=utf-8',
            'application/json; charset=UTF8',
            'application/json; charset=latin1',
            'application/json; charset=utf-16',
            'application/json; charset=utf-32le',
            'application/json; charset=',
            'application/vnd.api+json',
            'APPLICATION/JSON',
            'text/plain',
            'application/x-www-form-urlencoded',
            'multipart/form-data; boundary=x',
            'application/json;;;',
            '*/*',
            '',
          ),
          weight: 2,
        },
        { arbitrary: headerValue, weight: 1 },
        { arbitrary: fc.constant(undefined), weight: 1 },
      );
      const request = fc.record({
        body,
        apiKey,
        contentType,
        extra: fc.dictionary(headerName, headerValue, { maxKeys: 4 }),
        query: fc.option(fc.string({ maxLength: 30 }).map(encodeURIComponent), { nil: undefined }),
        // The key sent in the wrong place too: as a query parameter, or under a header name that is not x-api-key.
        misplacedKey: fc.option(
          fc.tuple(
            fc.constantFrom('query', 'header'),
            fc.constantFrom('x-api-key', 'api_key', 'key', 'apiKey', 'x_api_key', 'access_token', 'q'),
          ),
          { nil: undefined, freq: 4 },
        ),
      });

      const statuses = new Map<number, number>();
      await fc.assert(
        fc.asyncProperty(request, async (r) => {
          const headers: Record<string, string> = { ...r.extra };
          if (r.apiKey !== undefined) headers['x-api-key'] = r.apiKey;
          if (r.contentType !== undefined) headers['content-type'] = r.contentType;
          let path = r.query === undefined ? '/search' : `/search?${r.query}`;
          if (r.misplacedKey?.[0] === 'query')
            path += `${path.includes('?') ? '&' : '?'}${r.misplacedKey[1]}=${validKey}`;
          if (r.misplacedKey?.[0] === 'header' && r.misplacedKey[1] !== 'x-api-key')
            headers[r.misplacedKey[1]] = validKey;
          const res = await rawRequest(port, { path, headers, body: r.body, agent });
          statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);

          expect(ALLOWED).toContain(res.status);
          expect(res.headers['content-type']).toMatch(/^application\/json/);
          expect(res.headers['ratelimit-policy']).toMatch(/^"(per-key|failed-auth)";q=\d+;w=60$/);
          if (res.status === 200) {
            expect(Object.keys(res.json).sort()).toEqual(RESPONSE_KEYS);
            expect(res.json.isSuccess).toBe(true);
          } else {
            expect(res.json).toMatchObject({
              isSuccess: false,
              error: { code: expect.stringMatching(/^[A-Z_]+$/), message: expect.any(String) },
            });
            // Messages may quote the client's own field names; internals never appear.
            expect(res.text).not.toMatch(
              /\bat [\w$.<>]+ \([^)]*:\d+:\d+\)|node_modules\/|PrismaClient|DriverAdapterError|\/work\//,
            );
          }
        }),
        { numRuns: RUNS, seed: process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : undefined, endOnFailure: true },
      );

      if (process.env.FUZZ_VERBOSE) console.log(Object.fromEntries(statuses));
      // The generators reach every outcome, so the property is not passing on one kind of answer.
      expect([...statuses.keys()].sort()).toEqual(expect.arrayContaining([200, 400, 401, 413, 415]));
      expect([...statuses.values()].reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(RUNS);

      // However it was sent, the key is in no log line.
      expect(logLines.length).toBeGreaterThanOrEqual(RUNS);
      expect(logLines.filter((line) => line.includes(validKey.slice(12)))).toEqual([]);

      // Healthy afterwards: a normal search still finds its record.
      const after = await rawRequest(port, {
        body: JSON.stringify({ query: 'Herrengasse 35', limit: 1 }),
        headers: { 'content-type': 'application/json', 'x-api-key': validKey },
      });
      expect(after.status).toBe(200);
      expect(after.json.data[0].address).toBe('Herrengasse 35, 9490 Vaduz');
    },
    60_000 + RUNS * 25,
  );
});
