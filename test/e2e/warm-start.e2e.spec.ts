import { startServiceProcess } from '../helpers/service-process';
import { feature, importFixture, resetImagery } from '../helpers/test-app';
import { currentKind } from '../setup/test-database';

jest.setTimeout(180_000);

const STARTS = 3;
const KEY = 'warm-start-bootstrap-key-0123456789';

// The first search after a start must not pay for what the start left cold (the search code paths
// not yet run, and compiled, in a new process; a new pool's backend with its catalogue caches and
// PostGIS to load): main.ts warms up before it listens. The built server in a process of its own, a
// few starts and the best of them, so one slow moment of a busy machine does not decide. A misspelt
// search with every include (the most statements and code paths); without the warm-up the best of
// three starts' first searches took 83 and 162 ms longer than their second, with it 23 and -5 ms
// (2026-12-02, load 8-10).
// Server only: the built server is given the test database as a PostgreSQL server (the built-in
// database's own start is test/smoke/built-in-database.spec.ts's).
const serverOnly = currentKind() === 'server' ? describe : describe.skip;

serverOnly('the first search after a start', () => {
  beforeAll(async () => {
    await resetImagery();
    await importFixture([feature('Warm Street 1'), feature('Warm Street 2'), feature('Cold Lane 3')]);
  });

  it('is about as fast as the second', async () => {
    const extra: number[] = [];
    for (let i = 0; i < STARTS; i++) {
      const server = await startServiceProcess({ DATABASE_URL: process.env.DATABASE_URL!, BOOTSTRAP_API_KEY: KEY });
      try {
        const timed = async (query: string) => {
          const started = performance.now();
          const res = await fetch(`${server.base}/search`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'x-api-key': KEY },
            body: JSON.stringify({ query, include: ['total', 'match', 'place'] }),
          });
          expect(res.status).toBe(200);
          await res.arrayBuffer();
          return performance.now() - started;
        };
        const first = await timed('Warm Stret 1');
        const second = await timed('Cold Lan 3');
        extra.push(Math.round(first - second));
      } finally {
        await server.stop();
      }
    }
    // Milliseconds the first search took beyond the second, at each start.
    expect({ extra, best: Math.min(...extra) < 60 }).toEqual({ extra, best: true });
  });
});
