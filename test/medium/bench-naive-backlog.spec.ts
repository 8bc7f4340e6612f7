import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { Pool } from 'pg';
import { queryWhileWanted } from '../bench/bench-servers';

// The bench's reference servers run no statement for a request whose client has gone (the load
// generator gives up after 10 s): a queue of abandoned requests would otherwise keep the database
// busy into the next server's run.
describe('bench servers: no statement for an abandoned request', () => {
  let pool: Pool;
  let server: Server;
  let url: string;
  const outcomes: string[] = [];

  beforeAll(async () => {
    pool = new Pool({ connectionString: process.env.DATABASE_URL, max: 1 });
    server = createServer((req, res) => {
      const seconds = req.url === '/slow' ? 1 : 0;
      queryWhileWanted(pool, res, 'SELECT pg_sleep($1::float8)', [seconds]).then(
        () => {
          outcomes.push(`${req.url} ran`);
          res.end('ok');
        },
        (e: Error) => {
          outcomes.push(`${req.url}: ${e.message}`);
          res.end();
        },
      );
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise<void>((r) => server.close(() => r()));
    await pool.end();
  });

  it('skips the statement of a request abandoned while it waited for a connection', async () => {
    const slow = fetch(`${url}/slow`).then((r) => r.text());
    await new Promise((r) => setTimeout(r, 100));
    // Waits behind the slow one for the pool's only connection; its client gives up first.
    await expect(fetch(`${url}/abandoned`, { signal: AbortSignal.timeout(300) })).rejects.toThrow();
    expect(await slow).toBe('ok');
    expect(await fetch(`${url}/kept`).then((r) => r.text())).toBe('ok');
    expect(outcomes).toEqual(['/slow ran', '/abandoned: the client has gone', '/kept ran']);
  });
});
