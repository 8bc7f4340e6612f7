import type { IncomingMessage, ServerResponse } from 'node:http';
import { ExecutionContext } from '@nestjs/common';
import { loadConfig } from '../../src/config/app-config';
import { hashApiKey } from '../../src/api-key/api-key-hash';
import { ApiKeyChanges } from '../../src/api-key/api-key-changes';
import { ApiKeyRepository } from '../../src/api-key/api-key.repository';
import { KnownApiKeys } from '../../src/api-key/known-api-keys';
import { redactedQuery, redactHeaders, redactUrl } from '../../src/logging/log-redaction';
import { createRootLogger, requestId } from '../../src/logging/logging';
import { MetricsException } from '../../src/metrics/metrics.exception';
import { MetricsTokenGuard } from '../../src/metrics/metrics-token.guard';
import { routeOf } from '../../src/metrics/route-of';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

function fakeResponse() {
  const headers: Record<string, string> = {};
  return { headers, res: { setHeader: (k: string, v: string) => (headers[k] = v) } as unknown as ServerResponse };
}

describe('requestId', () => {
  it.each([['abc-123'], ['trace:0af7651916cd43dd8448eb211c80319c'], ['a.b_c']])(
    'honours a plain incoming id %s',
    (id) => {
      const { headers, res } = fakeResponse();
      expect(requestId({ headers: { 'x-request-id': id } } as unknown as IncomingMessage, res)).toBe(id);
      expect(headers['x-request-id']).toBe(id);
    },
  );

  it.each([
    [undefined],
    [''],
    ['has space'],
    ['x'.repeat(65)],
    ['new\nline'],
    ['{"json":1}'],
    // A key pasted into the wrong header must not be echoed or logged as the request id.
    ['lis_Qm9vbGVhbi1rZXktdmFsdWUtdGhhdC1pcy1zZWNyZXQtMTIzNDU2'],
    ['trace-lis_abcdefgh12345678'],
  ])('generates a UUID instead of %j', (id) => {
    const { headers, res } = fakeResponse();
    const got = requestId(
      { headers: id === undefined ? {} : { 'x-request-id': id } } as unknown as IncomingMessage,
      res,
    );
    expect(got).toMatch(UUID);
    expect(headers['x-request-id']).toBe(got);
  });
});

describe('routeOf', () => {
  const req = (over: object) => over as unknown as IncomingMessage;
  it('uses the route template, never the raw path', () => {
    expect(routeOf(req({ route: { path: '/demo-images/:file' }, baseUrl: '', url: '/demo-images/123.svg' }))).toBe(
      '/demo-images/:file',
    );
  });
  it('labels requests that matched no route, or only the catch-all, as unmatched', () => {
    expect(routeOf(req({ url: '/search' }))).toBe('unmatched');
    expect(routeOf(req({ route: { path: '/{*path}' }, url: '/x/y' }))).toBe('unmatched');
  });
});

describe('createRootLogger', () => {
  it('writes JSON with the secrets in headers redacted', () => {
    const lines: string[] = [];
    const logger = createRootLogger(loadConfig({ LOG_LEVEL: 'info' }), { write: (l: string) => lines.push(l) });
    logger.info(
      { req: { headers: { 'x-api-key': 'lis_secret', authorization: 'Bearer t0ken', cookie: 'c=1', accept: '*/*' } } },
      'hi',
    );
    const line = JSON.parse(lines[0]);
    expect(line).toMatchObject({
      level: 'info',
      msg: 'hi',
      req: { headers: { 'x-api-key': '[Redacted]', authorization: '[Redacted]', cookie: '[Redacted]', accept: '*/*' } },
    });
    expect(lines[0]).not.toMatch(/lis_secret|t0ken/);
  });

  it('honours LOG_LEVEL', () => {
    const lines: string[] = [];
    const logger = createRootLogger(loadConfig({ LOG_LEVEL: 'warn' }), { write: (l: string) => lines.push(l) });
    logger.info('quiet');
    logger.warn('loud');
    expect(lines.map((l) => JSON.parse(l).msg)).toEqual(['loud']);
  });
});

describe('MetricsTokenGuard', () => {
  const context = (authorization?: string) =>
    ({
      switchToHttp: () => ({ getRequest: () => ({ headers: authorization ? { authorization } : {} }) }),
    }) as unknown as ExecutionContext;
  const token = 'a-metrics-token-of-some-length';

  it('is closed by default: without METRICS_TOKEN no request gets in', () => {
    const guard = new MetricsTokenGuard(loadConfig({}));
    expect(() => guard.canActivate(context())).toThrow(expect.objectContaining({ code: 'MISSING_METRICS_TOKEN' }));
    expect(() => guard.canActivate(context(`Bearer ${token}`))).toThrow(
      expect.objectContaining({ code: 'INVALID_METRICS_TOKEN' }),
    );
  });

  it('lets everyone in only when METRICS_OPEN=true and no METRICS_TOKEN is set', () => {
    expect(new MetricsTokenGuard(loadConfig({ METRICS_OPEN: 'true' })).canActivate(context())).toBe(true);
    const both = new MetricsTokenGuard(loadConfig({ METRICS_OPEN: 'true', METRICS_TOKEN: token }));
    expect(() => both.canActivate(context())).toThrow(expect.objectContaining({ code: 'MISSING_METRICS_TOKEN' }));
  });

  it('requires the exact bearer token when it is set', () => {
    const guard = new MetricsTokenGuard(loadConfig({ METRICS_TOKEN: token }));
    expect(guard.canActivate(context(`Bearer ${token}`))).toBe(true);
    expect(guard.canActivate(context(`bearer ${token}`))).toBe(true);
    expect(() => guard.canActivate(context())).toThrow(expect.objectContaining({ code: 'MISSING_METRICS_TOKEN' }));
    for (const bad of [`Bearer ${token} `, `Bearer ${token}x`, token, `Bearer ${'x'.repeat(10_000)}`]) {
      expect(() => guard.canActivate(context(bad))).toThrow(MetricsException);
    }
  });
});

describe('log redaction', () => {
  const key = 'lis_Qm9vQm9vQm9vQm9vQm9vQm9vQm9vQm9vQm9vQm9vQm8';

  it('censors secret-named query parameters, however they are spelt, and keeps the rest', () => {
    expect(redactUrl('/search?X-API-KEY=abc&limit=2&Api_Key=def&access-token=g&apikey&page=1')).toBe(
      '/search?X-API-KEY=[Redacted]&limit=2&Api_Key=[Redacted]&access-token=[Redacted]&apikey&page=1',
    );
    expect(redactUrl('/search?%6B%65%79=secret')).toBe('/search?%6B%65%79=[Redacted]'); // "key", percent-encoded
    expect(redactUrl('/search')).toBe('/search');
  });

  it('censors anything shaped like a key: in a path segment, a value, a bare parameter, percent-encoded', () => {
    expect(redactUrl(`/demo-images/${key}.svg?q=${key}`)).toBe('/demo-images/[Redacted]?q=[Redacted]');
    expect(redactUrl(`/search?${key}`)).toBe('/search?[Redacted]');
    expect(redactUrl(`/search?q=${encodeURIComponent(`x ${key}`)}`)).toBe('/search?q=[Redacted]');
  });

  it('survives malformed escapes and prototype names', () => {
    expect(redactUrl('/search?q=%E0%A4%A&key=%')).toBe('/search?q=%E0%A4%A&key=[Redacted]');
    const query = redactedQuery('/search?__proto__=1&constructor=2&key=3&key=4');
    expect(Object.entries(query)).toEqual([
      ['__proto__', '1'],
      ['constructor', '2'],
      ['key', ['[Redacted]', '[Redacted]']],
    ]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('censors secret-named headers and key-shaped values, and the Referer like a URL', () => {
    expect(
      redactHeaders({
        x_api_key: 'abc',
        'api-key': 'def',
        'x-custom': key,
        referer: 'https://a.example/?token=t&x=1',
        accept: 'application/json',
      }),
    ).toEqual({
      x_api_key: '[Redacted]',
      'api-key': '[Redacted]',
      'x-custom': '[Redacted]',
      referer: 'https://a.example/?token=[Redacted]&x=1',
      accept: 'application/json',
    });
  });

  describe('of keys the server knows, whatever their form', () => {
    const bootstrap = 'Deploy.Token:QWxhZGRpbjpvcGVuIHNlc2FtZQ';
    const generated = 'lis_Zm9vYmFyYmF6cXV4Zm9vYmFyYmF6cXV4Zm9vYmFyYmE';
    const fromDatabase = 'made-by-another-process-0123456789abcdef';
    let isKey: (text: string) => boolean;

    beforeAll(async () => {
      const repository = { allKeyHashes: async () => [hashApiKey(fromDatabase)] } as unknown as ApiKeyRepository;
      const config = loadConfig({ BOOTSTRAP_API_KEY: bootstrap });
      const changes = new ApiKeyChanges(repository, config);
      const known = new KnownApiKeys(repository, config, changes);
      changes.changed(hashApiKey(generated)); // made here
      known.watch();
      await new Promise((r) => setImmediate(r));
      known.onModuleDestroy();
      isKey = known.isKey;
    });

    it('censors a bootstrap key, the secret part of a key and a key read from the database, in headers', () => {
      const secretPart = generated.slice(4);
      expect(
        redactHeaders(
          {
            'x-request-id': bootstrap,
            'x-trace': secretPart,
            'x-forwarded-for': `10.0.0.1, ${fromDatabase}`,
            'x-debug': `Bearer ${secretPart}`,
            'x-other': 'Deploy.Token:not-the-key-at-all-but-long',
          },
          isKey,
        ),
      ).toEqual({
        'x-request-id': '[Redacted]',
        'x-trace': '[Redacted]',
        'x-forwarded-for': '[Redacted]',
        'x-debug': '[Redacted]',
        'x-other': 'Deploy.Token:not-the-key-at-all-but-long',
      });
    });

    it('censors them in a path segment and a query value, raw or percent-encoded', () => {
      expect(
        redactUrl(`/demo-images/${encodeURIComponent(bootstrap)}.svg?q=Vaduz&ref=${generated.slice(4)}`, isKey),
      ).toBe('/demo-images/[Redacted]?q=Vaduz&ref=[Redacted]');
      expect(redactedQuery(`/search?from=${encodeURIComponent(fromDatabase)}&q=x`, isKey)).toEqual({
        from: '[Redacted]',
        q: 'x',
      });
    });

    it('never takes one as the request id', () => {
      const { headers, res } = fakeResponse();
      const id = requestId({ headers: { 'x-request-id': fromDatabase } } as unknown as IncomingMessage, res, isKey);
      expect(id).toMatch(UUID);
      expect(headers['x-request-id']).toBe(id);
    });
  });
});
