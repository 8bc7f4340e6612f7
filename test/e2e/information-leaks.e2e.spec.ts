import { BadRequestException } from '@nestjs/common';
import { NestExpressApplication } from '@nestjs/platform-express';
import { SearchService } from '../../src/search/search.service';
import { createKey, startApp } from '../helpers/test-app';
import { listen, RawResponse, rawRequest, rawSocket } from '../helpers/raw-http';
import { TcpProxy } from '../helpers/tcp-proxy';

// Stack frames, source and build paths, SQL, hosts and ports, and the names of the libraries underneath.
const LEAKS = [
  /\bat [\w$.<>]+ \(/, // stack frame
  /\.(ts|js|mjs|cjs):\d+/,
  /node_modules|\/work\/|\/src\/|\/dist\/|\/home\/|\/usr\/|[A-Z]:\\/,
  /\b(select|insert|update|delete)\b.+\b(from|into|set)\b/i,
  /\b(prisma|postgres(ql)?|pg_|node-postgres|express|nestjs|@nestjs|class-validator|class-transformer|ioredis|redis|body-parser|throttler)\b/i,
  /\b(stack|errno|syscall|ECONN\w+|P\d{4}|57014|SQLSTATE)\b/,
  /127\.0\.0\.1|localhost:\d+/,
];
const EXPECTED_HEADERS = new Set([
  'content-type', 'content-length', 'date', 'connection', 'keep-alive', 'etag', 'allow', 'retry-after', 'ratelimit', 'ratelimit-policy',
  // The request id (echoed or a UUID), compression's Vary, and helmet's security headers.
  'x-request-id', 'vary', 'content-security-policy', 'cross-origin-opener-policy', 'cross-origin-resource-policy',
  'origin-agent-cluster', 'referrer-policy', 'strict-transport-security', 'x-content-type-options', 'x-dns-prefetch-control',
  'x-download-options', 'x-frame-options', 'x-permitted-cross-domain-policies', 'x-xss-protection',
]);

function expectNoLeaks(res: RawResponse): void {
  for (const pattern of LEAKS) expect(res.text).not.toMatch(pattern);
  if (res.status >= 400) {
    expect(res.json).toMatchObject({ isSuccess: false, error: { code: expect.stringMatching(/^[A-Z_]+$/), message: expect.any(String) } });
    expect(Object.keys(res.json.error).every((k) => ['code', 'message', 'details'].includes(k))).toBe(true);
  }
  for (const [name, value] of Object.entries(res.headers)) {
    expect(EXPECTED_HEADERS).toContain(name); // no x-powered-by, server, x-* debugging headers
    for (const pattern of LEAKS) expect(String(value)).not.toMatch(pattern);
  }
}

describe('no information leaks', () => {
  let proxy: TcpProxy;
  let app: NestExpressApplication;
  let port: number;
  let key: string;
  const json = (body: string, headers: Record<string, string> = {}) =>
    rawRequest(port, { body, headers: { 'content-type': 'application/json', 'x-api-key': key, ...headers } });

  beforeAll(async () => {
    proxy = TcpProxy.forUrl(process.env.DATABASE_URL!);
    await proxy.start();
    app = await startApp({ databaseUrl: proxy.url(process.env.DATABASE_URL!), authFailuresPerMinute: 2, dbConnectTimeoutMs: 500 });
    port = await listen(app);
    key = await createKey(app);
  });
  afterAll(async () => {
    await app.close();
    await proxy.stop();
  });

  it('in client errors of every kind', async () => {
    const answers = [
      await json('{"query":"Vaduz"}'),
      await json('{"query":"Vaduz","limit":"ten"}'),
      await json('{"query":'),
      await json(`{"query":"x","a":${'['.repeat(3000)}${']'.repeat(3000)}}`),
      await json('{"query":"\\ud800"}'),
      await json(JSON.stringify({ query: 'x', pad: 'x'.repeat(20_000) })),
      await json('query=x', { 'content-type': 'text/plain' }),
      await json('{"query":"x"}', { 'content-encoding': 'gzip' }),
      await rawRequest(port, { method: 'GET' }),
      await rawRequest(port, { method: 'GET', path: '/nope' }),
      await rawRequest(port, { method: 'GET', path: '/demo-images/%E0%A4%A.svg' }),
      await rawRequest(port, { path: '/search/%00' }),
      await json('{"query":"x"}', { 'x-api-key': 'lis_wrong' }),
      await json('{"query":"x"}', { 'x-api-key': 'lis_wrong' }),
      await json('{"query":"x"}', { 'x-api-key': 'lis_wrong' }), // 429
      await rawRequest(port, { body: '{}', headers: { 'content-type': 'application/json', 'x-big': 'b'.repeat(10_000) } }),
    ];
    expect(new Set(answers.map((r) => r.status))).toEqual(new Set([200, 400, 401, 404, 405, 413, 415, 429, 431]));
    for (const res of answers) expectNoLeaks(res);
    const malformed = await rawSocket(port, 'GET / HTTP/1.1\r\nBad Header\r\n\r\n');
    for (const pattern of LEAKS) expect(malformed).not.toMatch(pattern);
  });

  it('when the database is unreachable (503)', async () => {
    await proxy.refuse();
    try {
      const res = await json('{"query":"Vaduz"}');
      expect(res.status).toBe(503);
      expectNoLeaks(res);
    } finally {
      await proxy.restore();
    }
  });

  it('when the code itself fails (500)', async () => {
    const service = app.get(SearchService);
    const failures: unknown[] = [
      Object.assign(new Error('relation "imagery" does not exist: SELECT id FROM imagery at /work/app/node_modules/@prisma/client/runtime.js:1:2'), {
        code: 'P2010',
      }),
      new TypeError("Cannot read properties of undefined (reading 'prisma')"),
      'a thrown string from express',
      new BadRequestException('class-validator internals: /work/src/search/search.dto.ts:12'),
    ];
    for (const failure of failures) {
      jest.spyOn(service, 'search').mockRejectedValueOnce(failure);
      const res = await json('{"query":"Vaduz"}');
      expect([400, 500]).toContain(res.status);
      expectNoLeaks(res);
    }
  });
});
