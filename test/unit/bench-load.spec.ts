import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { runLoad } from '../bench/bench-load';
import { slowestBodies } from '../bench/bench-latency';

describe('bench load: the slowest bodies at one connection', () => {
  it('orders bodies by their median latency, then by their slowest request', () => {
    const latencies = new Map([
      [0, [1, 2, 3]],
      [1, [9, 10, 11]],
      [2, [1, 2, 40]],
      [3, []],
    ]);
    expect(slowestBodies(latencies, 2)).toEqual([
      { body: 1, requests: 3, p50: 10, max: 11 },
      { body: 2, requests: 3, p50: 2, max: 40 },
    ]);
  });

  // A real autocannon run against a server that answers one body late: the pairing of responses
  // with the bodies sent must name that body, and only at one connection.
  describe('against a server', () => {
    let server: Server;
    let url: string;
    beforeAll(async () => {
      server = createServer((req, res) => {
        let body = '';
        req.on('data', (c) => (body += c));
        req.on('end', () => {
          const delay = body.includes('slow') ? 25 : 0;
          setTimeout(() => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'), delay);
        });
      });
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    afterAll(() => new Promise<void>((r) => server.close(() => r())));

    const bodies = ['{"q":"a"}', '{"q":"b"}', '{"q":"slow"}', '{"q":"c"}'];

    it('names the body the slow responses answered', async () => {
      const r = await runLoad(url, bodies, [], 1, 1);
      expect(r.slowest!.length).toBe(4);
      expect(r.slowest![0].body).toBe(2);
      expect(r.slowest![0].p50).toBeGreaterThanOrEqual(25);
      expect(r.slowest![1].p50).toBeLessThan(25);
      expect(r.slowest!.reduce((n, b) => n + b.requests, 0)).toBe(r.ok);
    });

    it('lists none at several connections', async () => {
      const r = await runLoad(url, bodies, [], 2, 1);
      expect(r.ok).toBeGreaterThan(0);
      expect(r.slowest).toBeUndefined();
    });
  });
});
