import { BadRequestException } from '@nestjs/common';
import { NestExpressApplication } from '@nestjs/platform-express';
import { ApiKeyService } from '../../src/api-key/api-key.service';
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
  'content-type',
  'content-length',
  'date',
  'connection',
  'keep-alive',
  'cache-control',
  'etag',
  'allow',
  'retry-after',
  'ratelimit',
  'ratelimit-policy',
  // The request id (echoed or a UUID), compression's Vary, and helmet's security headers.
  'x-request-id',
  'vary',
  'content-security-policy',
  'cross-origin-opener-policy',
  'cross-origin-resource-policy',
  'origin-agent-cluster',
  'referrer-policy',
  'strict-transport-security',
  'x-content-type-options',
  'x-dns-prefetch-control',
  'x-download-options',
  'x-frame-options',
  'x-permitted-cross-domain-policies',
  'x-xss-protection',
]);

function expectNoLeaks(res: RawResponse): void {
  for (const pattern of LEAKS) expect(res.text).not.toMatch(pattern);
  if (res.status >= 400) {
    expect(res.json).toMatchObject({
      isSuccess: false,
      error: { code: expect.stringMatching(/^[A-Z_]+$/), message: expect.any(String) },
    });
    expect(Object.keys(res.json.error).every((k) => ['code', 'message', 'details'].includes(k))).toBe(true);
    // An error is an answer about this moment: no cache, shared or the browser's, keeps it.
    expect({ status: res.status, cache: res.headers['cache-control'] }).toEqual({
      status: res.status,
      cache: 'no-store',
    });
  }
  for (const [name, value] of Object.entries(res.headers)) {
    expect(EXPECTED_HEADERS).toContain(name); // no x-powered-by, server, x-* debugging headers
    for (const pattern of LEAKS) expect(String(value)).not.toMatch(pattern);
  }
}

const GUESSER = '203.0.113.66';

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
    app = await startApp({
      databaseUrl: proxy.url(process.env.DATABASE_URL!),
      authFailuresPerMinute: 2,
      trustProxy: ['loopback'],
      dbConnectTimeoutMs: 500,
    });
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
      // From a client of their own (behind the trusted proxy): locked out after two, which must not
      // lock out the right key the other tests send.
      await json('{"query":"x"}', { 'x-api-key': 'lis_wrong', 'x-forwarded-for': GUESSER }),
      await json('{"query":"x"}', { 'x-api-key': 'lis_wrong', 'x-forwarded-for': GUESSER }),
      await json('{"query":"x"}', { 'x-api-key': 'lis_wrong', 'x-forwarded-for': GUESSER }), // 429
      await rawRequest(port, {
        body: '{}',
        headers: { 'content-type': 'application/json', 'x-big': 'b'.repeat(10_000) },
      }),
    ];
    expect(new Set(answers.map((r) => r.status))).toEqual(new Set([200, 400, 401, 404, 405, 413, 415, 429, 431]));
    for (const res of answers) expectNoLeaks(res);
    const malformed = await rawSocket(port, 'GET / HTTP/1.1\r\nBad Header\r\n\r\n');
    for (const pattern of LEAKS) expect(malformed).not.toMatch(pattern);
    expect(malformed.toLowerCase()).toContain('\r\ncache-control: no-store\r\n');
  });

  it("with the security headers on the answers Node's HTTP parser refuses (431, malformed HTTP) as on every other", async () => {
    const normal = await rawRequest(port, { method: 'GET', path: '/nope' });
    const security = Object.entries(normal.headers).filter(([name]) =>
      /^(content-security-policy|cross-origin|origin-agent|referrer|strict-transport|x-(content-type|dns|download|frame|permitted|xss))/.test(
        name,
      ),
    );
    expect(security.length).toBeGreaterThanOrEqual(10);
    const tooLarge = await rawRequest(port, {
      body: '{}',
      headers: { 'content-type': 'application/json', 'x-big': 'b'.repeat(10_000) },
    });
    expect(tooLarge.status).toBe(431);
    expect(tooLarge.headers).toMatchObject(Object.fromEntries(security));
    const malformed = await rawSocket(port, 'GET / HTTP/1.1\r\nBad Header\r\n\r\n');
    expect(malformed).toMatch(/^HTTP\/1\.1 400 /);
    for (const [name, value] of security)
      expect(malformed.toLowerCase()).toContain(`\r\n${name}: ${String(value).toLowerCase()}\r\n`);
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
      Object.assign(
        new Error(
          'relation "imagery" does not exist: SELECT id FROM imagery at /work/app/node_modules/@prisma/client/runtime.js:1:2',
        ),
        {
          code: 'P2010',
        },
      ),
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

describe('no API key in the logs or metrics, wherever a client puts it', () => {
  let app: NestExpressApplication;
  let port: number;
  const lines: string[] = [];
  // A generated key (lis_...) and an operator-chosen one (BOOTSTRAP_API_KEY may be any string).
  let generated: string;
  const chosen = 'operator-chosen-secret-value-0123456789';

  beforeAll(async () => {
    app = await startApp(
      { logLevel: 'debug', metricsOpen: true },
      { logDestination: { write: (line: string) => lines.push(line) } },
    );
    port = await listen(app);
    generated = await createKey(app, 'leak-check');
    await app.get(ApiKeyService).register(chosen, 'operator');
  });
  afterAll(() => app.close());

  it('redacts it from url, query, params and headers of every log line, and never puts it in a metric', async () => {
    const body = '{"query":"Vaduz"}';
    const headers = { 'content-type': 'application/json' };
    for (const key of [generated, chosen]) {
      const sent = [
        await rawRequest(port, { path: `/search?x-api-key=${key}`, headers, body }),
        await rawRequest(port, { path: `/search?api_key=${encodeURIComponent(key)}&limit=2`, headers, body }),
        await rawRequest(port, { path: `/search?key=${key}`, headers, body }),
        await rawRequest(port, { path: `/search?apiKey=${key}&key=${key}`, headers, body }),
        await rawRequest(port, { path: `/search?access_token=${key}`, headers, body }),
        await rawRequest(port, { path: '/search', headers: { ...headers, x_api_key: key }, body }),
        await rawRequest(port, {
          path: '/search',
          headers: { ...headers, 'api-key': key, referer: `https://app.example/?key=${key}` },
          body,
        }),
        await rawRequest(port, { method: 'GET', path: `/no/such/route?x-api-key=${key}` }),
        await rawRequest(port, { method: 'GET', path: `/health/live?api_key=${key}` }),
      ];
      expect(sent.slice(0, 7).map((r) => r.status)).toEqual(Array(7).fill(401));
    }
    // A key that reaches the logs another way (a query value with an innocent name) is caught by its shape.
    await rawRequest(port, { path: `/search?q=${generated}`, headers: { ...headers, 'x-api-key': generated }, body });
    await rawRequest(port, { method: 'GET', path: `/demo-images/${generated}.svg` });
    const metrics = await rawRequest(port, { method: 'GET', path: '/metrics' });
    expect(metrics.status).toBe(200);
    await new Promise((r) => setTimeout(r, 100));

    const all = lines.join('\n');
    for (const secret of [generated, generated.slice(12), chosen, encodeURIComponent(chosen)]) {
      expect(all).not.toContain(secret);
      expect(metrics.text).not.toContain(secret);
    }
    // The lines are there, with what is not secret still readable.
    const urls = lines
      .map((l) => JSON.parse(l))
      .filter((l) => l.msg === 'request completed')
      .map((l) => l.req.url);
    expect(urls).toEqual(
      expect.arrayContaining([
        '/search?x-api-key=[Redacted]',
        '/search?api_key=[Redacted]&limit=2',
        '/search?apiKey=[Redacted]&key=[Redacted]',
        '/no/such/route?x-api-key=[Redacted]',
        '/search?q=[Redacted]',
      ]),
    );
    const logged = lines.map((l) => JSON.parse(l)).find((l) => l.req?.url === '/search?api_key=[Redacted]&limit=2');
    expect(logged.req.query).toEqual({ api_key: '[Redacted]', limit: '2' });
    expect(lines.map((l) => JSON.parse(l)).some((l) => l.req?.headers?.x_api_key === '[Redacted]')).toBe(true);
  });
});
