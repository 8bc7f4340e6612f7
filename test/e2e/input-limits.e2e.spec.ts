import zlib from 'node:zlib';
import { NestExpressApplication } from '@nestjs/platform-express';
import { ApiKeyService } from '../../src/api-key/api-key.service';
import { HTTP_LIMITS } from '../../src/common/http-server-limits';
import { MAX_BODY_BYTES, MAX_JSON_DEPTH, MAX_JSON_MEMBERS } from '../../src/common/json-body.middleware';
import { createKey, feature, importFixture, resetImagery, startApp } from '../helpers/test-app';
import { listen, rawRequest, rawSocket, trickle } from '../helpers/raw-http';

const ERROR_SHAPE = { isSuccess: false, error: { code: expect.any(String), message: expect.any(String) } };

// Every bound from the Bounds table in docs/api.md, at its edge, over real HTTP.
describe('input limits', () => {
  let app: NestExpressApplication;
  let port: number;
  let key: string;
  const post = (body: string, headers: Record<string, string> = {}) =>
    rawRequest(port, { body, headers: { 'content-type': 'application/json', 'x-api-key': key, ...headers } });
  const search = (body: object) => post(JSON.stringify(body));

  beforeAll(async () => {
    await resetImagery();
    await importFixture([feature('Boundary Road 1'), feature('Boundary Road 2')]);
    app = await startApp({ rateLimitPerMinute: 100_000 });
    port = await listen(app);
    key = await createKey(app);
  });
  afterAll(() => app.close());

  describe('contract fields at their bounds', () => {
    it.each([
      ['query of 1 character', { query: 'B' }],
      ['query of 256 characters', { query: 'B'.repeat(256) }],
      ['query of 256 characters inside spaces', { query: `   ${'B'.repeat(256)}   ` }],
      ['query with control characters', { query: 'Boundary\u0000Road\u001f1' }],
      ['limit 1', { query: 'Boundary', limit: 1 }],
      ['limit 100', { query: 'Boundary', limit: 100 }],
      ['page 1', { query: 'Boundary', page: 1 }],
      ['page * limit = 10000', { query: 'Boundary', limit: 100, page: 100 }],
      ['page 10000 with limit 1', { query: 'Boundary', limit: 1, page: 10_000 }],
    ])('accepts %s', async (_label, body) => {
      const res = await search(body);
      expect(res.status).toBe(200);
      expect(res.json.isSuccess).toBe(true);
    });

    it.each([
      ['an empty query', { query: '' }, 'query'],
      ['a blank query', { query: ' \t\n ' }, 'query'],
      ['a query of 257 characters', { query: 'B'.repeat(257) }, 'query'],
      ['a missing query', { limit: 5 }, 'query'],
      ['limit 0', { query: 'B', limit: 0 }, 'limit'],
      ['limit 101', { query: 'B', limit: 101 }, 'limit'],
      ['a negative limit', { query: 'B', limit: -1 }, 'limit'],
      ['a fractional limit', { query: 'B', limit: 2.5 }, 'limit'],
      ['page 0', { query: 'B', page: 0 }, 'page'],
      ['page * limit = 10001', { query: 'B', limit: 1, page: 10_001 }, 'page'],
      ['page 2^53', { query: 'B', page: 2 ** 53 }, 'page'],
      ['an include name given twice', { query: 'B', include: ['total', 'total'] }, 'include'],
      ['an include name given three times', { query: 'B', include: ['total', 'total', 'total'] }, 'include'],
    ])('refuses %s with 400 naming the field', async (_label, body, field) => {
      const res = await search(body);
      expect(res.status).toBe(400);
      expect(res.json).toMatchObject({ isSuccess: false, error: { code: 'INVALID_REQUEST' } });
      expect(res.json.error.details.map((d: { field: string }) => d.field)).toContain(field);
    });

    it('refuses numbers beyond double range and negative zero as page', async () => {
      for (const text of ['{"query":"B","limit":1e400}', '{"query":"B","page":-0}', '{"query":"B","limit":-1e400}']) {
        const res = await post(text);
        expect(res.status).toBe(400);
        expect(res.json.error.code).toBe('INVALID_REQUEST');
      }
    });
  });

  describe('body', () => {
    it(`takes ${MAX_BODY_BYTES} bytes and refuses one more with 413`, async () => {
      const body = (size: number) => {
        const shell = JSON.stringify({ query: 'Boundary', limit: 1, pad: '' });
        return shell.replace('"pad":""', `"pad":"${'x'.repeat(size - shell.length)}"`);
      };
      expect(Buffer.byteLength(body(MAX_BODY_BYTES))).toBe(MAX_BODY_BYTES);
      const fits = await post(body(MAX_BODY_BYTES));
      expect(fits.status).toBe(400); // read and validated (pad is not a field), not refused for size
      expect(fits.json.error.details).toEqual([{ field: 'pad', message: 'property pad should not exist' }]);
      const over = await post(body(MAX_BODY_BYTES + 1));
      expect(over.status).toBe(413);
      expect(over.json).toEqual({
        isSuccess: false,
        error: { code: 'PAYLOAD_TOO_LARGE', message: expect.any(String) },
      });
    });

    it('refuses a compressed body that inflates past the limit (a zip bomb) with 413', async () => {
      const bomb = zlib.gzipSync(Buffer.alloc(50 * 1024 * 1024, 0x20));
      const res = await rawRequest(port, {
        body: bomb,
        headers: { 'content-type': 'application/json', 'content-encoding': 'gzip', 'x-api-key': key },
      });
      expect(res.status).toBe(413);
      expect(res.json.error.code).toBe('PAYLOAD_TOO_LARGE');
    });

    it(`refuses nesting deeper than ${MAX_JSON_DEPTH} cheaply, even thousands of levels (no stack overflow)`, async () => {
      const deep = (n: number) => `{"query":"B","x":${'['.repeat(n)}${']'.repeat(n)}}`;
      const ok = await post(deep(MAX_JSON_DEPTH - 1));
      expect(ok.json.error.details[0].field).toBe('x'); // only the unknown property is wrong
      for (const n of [MAX_JSON_DEPTH, 5000]) {
        const started = Date.now();
        const res = await post(deep(n));
        expect(res.status).toBe(400);
        expect(res.json.error).toMatchObject({
          code: 'INVALID_REQUEST',
          message: expect.stringContaining(`deeper than ${MAX_JSON_DEPTH}`),
        });
        expect(Date.now() - started).toBeLessThan(1000);
      }
    });

    it(`refuses arrays and objects with more than ${MAX_JSON_MEMBERS} members`, async () => {
      const res = await post(`{"query":"B","ids":[${Array(5000).fill(1).join(',')}]}`);
      expect(res.status).toBe(400);
      expect(res.json.error.details[0]).toEqual({
        field: 'ids',
        message: expect.stringContaining(`${MAX_JSON_MEMBERS} members`),
      });
      const top = await post(
        `[${Array(MAX_JSON_MEMBERS + 1)
          .fill('"a"')
          .join(',')}]`,
      );
      expect(top.status).toBe(400);
    });

    it('refuses unpaired surrogates (JSON allows them, text does not)', async () => {
      for (const text of ['{"query":"\\ud800Boundary"}', '{"query":"Boundary\\udfff"}']) {
        const res = await post(text);
        expect(res.status).toBe(400);
        expect(res.json.error.details[0].field).toBe('query');
      }
      const pair = await post('{"query":"Boundary \\ud83d\\ude00"}');
      expect(pair.status).toBe(200);
    });

    it('takes the last of duplicate keys, as JSON.parse does, and validates that', async () => {
      const dup = await post('{"query":"nothing here","query":"Boundary Road 1"}');
      expect(dup.status).toBe(200);
      expect(dup.json.data[0].address).toBe('Boundary Road 1');
      const bad = await post('{"query":"B","limit":5,"limit":"5"}');
      expect(bad.status).toBe(400);
    });

    it('refuses prototype-pollution keys anywhere', async () => {
      for (const text of [
        '{"query":"B","__proto__":{"isAdmin":true}}',
        '{"query":"B","constructor":{"prototype":{"x":1}}}',
        '{"query":"B","prototype":1}',
        '{"query":"B","nested":{"__proto__":{"x":1}}}',
        '{"query":"B","toString":1}',
        '{"query":"B","valueOf":"x"}',
        '{"query":"B","hasOwnProperty":true}',
        '{"query":"B","near":{"lat":1,"lon":2,"__proto__":{"x":1}}}',
        '{"query":"B","near":{"lat":1,"lon":2,"constructor":{"prototype":{"x":1}}}}',
        '{"query":"B","looking_at":{"lat":1,"lon":2,"prototype":1}}',
      ]) {
        const res = await post(text);
        expect([text, res.status]).toEqual([text, 400]);
        expect(res.json).toMatchObject(ERROR_SHAPE);
      }
      const nested = await post('{"query":"B","near":{"lat":1,"lon":2,"__proto__":{"x":1}}}');
      expect(nested.json.error.details[0].field).toBe('near.__proto__');
      expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
    });

    it('refuses bytes that are not UTF-8 with 400, instead of searching what replacing them gives', async () => {
      const bodies = [
        Buffer.concat([Buffer.from('{"query":"Z'), Buffer.from([0xfc]), Buffer.from('rich"}')]), // latin-1 ü
        Buffer.concat([Buffer.from('{"query":"B'), Buffer.from([0xc0, 0xaf]), Buffer.from('"}')]), // overlong
        Buffer.concat([Buffer.from('{"query":"B'), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from('"}')]), // surrogate
        Buffer.concat([Buffer.from('{"query":"B'), Buffer.from([0xe2, 0x82]), Buffer.from('"}')]), // truncated
      ];
      for (const body of bodies) {
        const res = await rawRequest(port, { body, headers: { 'content-type': 'application/json', 'x-api-key': key } });
        expect(res.status).toBe(400);
        expect(res.json).toMatchObject(ERROR_SHAPE);
        expect(res.json.error).toMatchObject({ code: 'MALFORMED_JSON', message: expect.stringContaining('UTF-8') });
      }
      const gzipped = await rawRequest(port, {
        body: zlib.gzipSync(bodies[0]),
        headers: { 'content-type': 'application/json', 'content-encoding': 'gzip', 'x-api-key': key },
      });
      expect(gzipped.json.error.code).toBe('MALFORMED_JSON');
      const fine = await post('{"query":"Boundary Road 1 Zürich 😀"}');
      expect(fine.status).toBe(200);
    });

    it('takes UTF-8 under either spelling, in any case', async () => {
      for (const charset of ['utf-8', 'UTF-8', 'Utf-8', 'utf8', 'UTF8', '"utf-8"']) {
        const res = await post('{"query":"Boundary Road 1"}', {
          'content-type': `application/json; charset=${charset}`,
        });
        expect({ charset, status: res.status }).toEqual({ charset, status: 200 });
        expect(res.json.data[0].address).toBe('Boundary Road 1');
      }
    });

    it('refuses every other charset and unknown content encodings with 415', async () => {
      const text = '{"query":"Boundary Road 1"}';
      const utf16be = Buffer.from(text, 'utf16le').swap16();
      const bodies: Array<[string, string | Buffer]> = [
        ['latin1', text],
        ['iso-8859-1', text],
        ['utf-16', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')])], // a real UTF-16 body
        ['utf-16le', Buffer.from(text, 'utf16le')],
        ['UTF-16BE', utf16be],
        ['utf-32', text],
        ['utf-7', text],
        ['utf-8x', text],
        ['', text],
      ];
      for (const [charset, body] of bodies) {
        const res = await rawRequest(port, {
          body,
          headers: { 'content-type': `application/json; charset=${charset}`, 'x-api-key': key },
        });
        expect({ charset, status: res.status, code: res.json?.error?.code }).toEqual({
          charset,
          status: 415,
          code: 'UNSUPPORTED_MEDIA_TYPE',
        });
      }
      expect((await post('{"query":"B"}', { 'content-encoding': 'zstd' })).status).toBe(415);
    });
  });

  describe('HTTP', () => {
    it(`answers headers over ${HTTP_LIMITS.maxHeaderBytes} bytes with 431 in the error shape`, async () => {
      const res = await rawRequest(port, {
        body: '{"query":"B"}',
        headers: {
          'content-type': 'application/json',
          'x-api-key': key,
          'x-padding': 'p'.repeat(HTTP_LIMITS.maxHeaderBytes),
        },
      });
      expect(res.status).toBe(431);
      expect(res.json).toEqual({ isSuccess: false, error: { code: 'HEADERS_TOO_LARGE', message: expect.any(String) } });
      const fits = await rawRequest(port, {
        body: '{"query":"B"}',
        headers: {
          'content-type': 'application/json',
          'x-api-key': key,
          'x-padding': 'p'.repeat(HTTP_LIMITS.maxHeaderBytes / 2),
        },
      });
      expect(fits.status).toBe(200);
    });

    it('answers malformed HTTP with 400 in the error shape', async () => {
      const text = await rawSocket(port, 'THIS IS NOT HTTP\r\n\r\n');
      expect(text).toMatch(/^HTTP\/1\.1 400 /);
      expect(JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4))).toEqual({
        isSuccess: false,
        error: { code: 'INVALID_REQUEST', message: 'Malformed HTTP request' },
      });
    });

    // Content-Length announces 1 MB and no byte of it is sent: none of these answers needs the body.
    const announced = (headers: string) =>
      `POST /search HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1048576\r\n${headers}\r\n{"query":`;

    it('answers 401 and 429 as soon as the headers are in, without waiting for an announced body, and closes', async () => {
      const { key: oneAMinute } = await app.get(ApiKeyService).create('one-a-minute', 1);
      expect((await post('{"query":"B"}', { 'x-api-key': oneAMinute })).status).toBe(200);
      for (const [headers, status] of [
        ['', 401],
        ['x-api-key: lis_not-a-real-key-000000000000000000000000\r\n', 401],
        [`x-api-key: ${oneAMinute}\r\n`, 429],
      ] as const) {
        const started = Date.now();
        const text = await rawSocket(port, announced(headers));
        expect({ headers, status: Number(text.slice(9, 12)) }).toEqual({ headers, status });
        expect(text).toMatch(/\r\nconnection: close\r\n/i);
        expect(Date.now() - started).toBeLessThan(2000);
      }
    });

    it('answers 413 at once when Content-Length alone is over the limit', async () => {
      const started = Date.now();
      const text = await rawSocket(port, announced(`x-api-key: ${key}\r\n`));
      expect(text).toMatch(/^HTTP\/1\.1 413 /);
      expect(text).toMatch(/\r\nconnection: close\r\n/i);
      expect(Date.now() - started).toBeLessThan(2000);
    });

    it('refuses an x-api-key over 200 characters without a database lookup', async () => {
      const res = await post('{"query":"B"}', { 'x-api-key': 'k'.repeat(201) });
      expect(res.status).toBe(401);
      expect(res.json.error.code).toBe('INVALID_API_KEY');
    });

    it('is still healthy afterwards', async () => {
      const res = await search({ query: 'Boundary Road', limit: 2 });
      expect(res.status).toBe(200);
      expect(res.json.data).toHaveLength(2);
    });
  });

  // Short timeouts, so the test is quick; Node looks for expired connections on a timer, which must
  // follow them (it ran every 30 s: a 10 s header timeout cut a client off 30 s in).
  describe('slow clients, with HTTP_HEADERS_TIMEOUT_MS=1500 and HTTP_REQUEST_TIMEOUT_MS=3000', () => {
    let slowApp: NestExpressApplication;
    let slowPort: number;
    // Cut off no earlier than the timeout and at most this much later (the timer, a busy machine).
    const MARGIN_MS = 1000;

    beforeAll(async () => {
      slowApp = await startApp({ httpHeadersTimeoutMs: 1500, httpRequestTimeoutMs: 3000 });
      slowPort = await listen(slowApp);
    });
    afterAll(() => slowApp.close());

    const expectCutOff = (answer: { text: string; afterMs: number }, timeoutMs: number) => {
      expect(answer.text).toMatch(/^HTTP\/1\.1 408 /);
      expect(JSON.parse(answer.text.slice(answer.text.indexOf('\r\n\r\n') + 4)).error.code).toBe('REQUEST_TIMEOUT');
      expect(answer.afterMs).toBeGreaterThanOrEqual(timeoutMs - 50);
      expect(answer.afterMs).toBeLessThan(timeoutMs + MARGIN_MS);
    };

    it('cuts off a client sending its headers slowly once the header timeout has passed', async () => {
      const answer = await trickle(slowPort, 'POST /search HTTP/1.1\r\nHost: x\r\n', 'x-slow: 1\r\n', 200);
      expectCutOff(answer, 1500);
    }, 40_000);

    it('cuts off a client sending its body slowly once the request timeout has passed', async () => {
      const head =
        `POST /search HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nx-api-key: ${key}\r\n` +
        'Content-Length: 200\r\n\r\n{"query":"Boundary","pad":"';
      const answer = await trickle(slowPort, head, 'x', 200);
      expectCutOff(answer, 3000);
    }, 40_000);

    it('still answers a request sent at a normal pace', async () => {
      const res = await rawRequest(slowPort, {
        body: JSON.stringify({ query: 'Boundary Road', limit: 1 }),
        headers: { 'content-type': 'application/json', 'x-api-key': key },
      });
      expect(res.status).toBe(200);
    });
  });
});
