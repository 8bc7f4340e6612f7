import { Logger as NestLogger } from '@nestjs/common';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { nestLoggerFor } from '../../src/logging/logging';
import { requestLogger } from '../../src/logging/request-logger';

// The request log on a real HTTP server and a real pino logger: the completion line, the lines
// written while a request is handled (which carry the request), and a client that left early.
describe('requestLogger', () => {
  const lines: Array<Record<string, any>> = [];
  const logger = pino({ level: 'debug' }, { write: (line: string) => lines.push(JSON.parse(line)) });
  const middleware = requestLogger(logger);
  const nest = new NestLogger('Handler');
  let server: Server;
  let port: number;

  beforeAll(async () => {
    NestLogger.overrideLogger(nestLoggerFor(logger));
    server = createServer((req, res) =>
      middleware(req as never, res, () => {
        if (req.url === '/slow') return; // answered never: the client gives up
        setTimeout(() => {
          if (req.url === '/fails') nest.error('something broke');
          res.statusCode = req.url === '/fails' ? 500 : 200;
          res.end('ok');
        }, 1);
      }),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  const get = (path: string, headers: Record<string, string> = {}) =>
    new Promise<{ status: number; id: string }>((resolve, reject) =>
      request({ port, path, headers }, (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode!, id: String(res.headers['x-request-id']) }));
      })
        .on('error', reject)
        .end(),
    );
  const linesOf = async (id: string, count: number) => {
    for (let i = 0; i < 50 && lines.filter((l) => l.req?.id === id).length < count; i++) {
      await new Promise((r) => setTimeout(r, 10));
    }
    return lines.filter((l) => l.req?.id === id);
  };

  it('writes one line when a response completes, with the key redacted', async () => {
    const { id } = await get('/search?api_key=secret-value', { 'x-api-key': 'lis_abcdefghijklmnop' });
    const found = await linesOf(id, 1);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({
      level: 30,
      msg: 'request completed',
      res: { statusCode: 200 },
      durationMs: expect.any(Number),
      req: { method: 'GET', url: '/search?api_key=[Redacted]', headers: { 'x-api-key': '[Redacted]' } },
    });
    expect(JSON.stringify(found)).not.toContain('secret-value');
    expect(found[0]).not.toHaveProperty('aborted');
  });

  it('gives lines written while the request is handled the request, and logs a 5xx as failed', async () => {
    const { status, id } = await get('/fails');
    expect(status).toBe(500);
    const found = await linesOf(id, 2);
    expect(found.map((l) => l.msg)).toEqual(['something broke', 'request failed']);
    expect(found.map((l) => l.level)).toEqual([50, 50]);
    expect(found[0]).toMatchObject({ context: 'Handler', req: { id, method: 'GET', url: '/fails' } });
  });

  it('marks a request whose client went away before the answer', async () => {
    const id = 'left-early-1';
    await new Promise<void>((resolve) => {
      const req = request({ port, path: '/slow', headers: { 'x-request-id': id } });
      req.on('error', () => resolve());
      req.end();
      setTimeout(() => req.destroy(), 50);
    });
    const [line] = await linesOf(id, 1);
    expect(line).toMatchObject({ msg: 'request completed', aborted: true, req: { url: '/slow' } });
  });
});
