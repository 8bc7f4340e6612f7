import { spawnSync } from 'node:child_process';
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { Client } from 'pg';
import { measureCell } from '../bench/bench-cells';
import { withClient } from '../bench/bench-database';
import { waitIdle } from '../bench/bench-environment';
import { runLoad, RunningServer } from '../bench/bench-load';

// The bench died with pg's "Client has encountered a connection error and is not queryable" when a
// database backend it held was ended between two of its queries (waitIdle polls and sleeps between
// every two runs). Here the backends are ended for real, with pg_terminate_backend.
describe('bench: a dropped database connection fails a run, not the bench', () => {
  const url = () => process.env.DATABASE_URL!;

  async function terminate(applicationName: string): Promise<number> {
    return withClient(url(), async (c) => {
      const { rowCount } = await c.query(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
         WHERE application_name = $1 AND datname = current_database() AND pid <> pg_backend_pid()`,
        [applicationName],
      );
      return rowCount ?? 0;
    });
  }

  it('waitIdle connects again when its connection is ended while it waits', async () => {
    // A statement that stays active for a while keeps waitIdle polling (the grace period is long
    // enough that it does not cancel it).
    const busy = new Client({ connectionString: url(), application_name: 'bench-spec-busy' });
    busy.on('error', () => undefined);
    await busy.connect();
    const sleeping = busy.query('SELECT pg_sleep(2)');
    try {
      const waiting = waitIdle(url(), 60_000, 20_000);
      await new Promise((r) => setTimeout(r, 500));
      expect(await terminate('lis-bench')).toBeGreaterThanOrEqual(1);
      await sleeping;
      await expect(waiting).resolves.toBeUndefined();
    } finally {
      await busy.end();
    }
  });

  it('waitIdle says it could not wait rather than throwing when the database cannot be reached', async () => {
    const closed = Object.assign(new URL(url()), { port: String(await closedPort()) }).toString();
    const failure = await waitIdle(closed, 100, 1500);
    expect(failure).toMatch(/^waiting for an idle database: /);
  });

  describe('measureCell', () => {
    let http: Server;
    let httpUrl: string;
    beforeAll(async () => {
      http = createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
      await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
      httpUrl = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
    });
    afterAll(() => new Promise<void>((r) => http.close(() => r())));

    // A server as startServer describes it, its process a real child (exited when `exited`).
    function server(exited: boolean): RunningServer {
      const child = spawnSync(process.execPath, ['-e', exited ? '' : 'setTimeout(() => {}, 10)']);
      return {
        kind: 'ceiling',
        url: httpUrl,
        child: { pid: child.pid } as RunningServer['child'],
        assertRunning: () => {
          if (exited) throw new Error(`ceiling server exited during the run (code ${child.status})`);
        },
        stop: async () => undefined,
      };
    }

    it('records a run whose database connection was ended as a failed row', async () => {
      const cell = await measureCell(
        server(false),
        () => Promise.reject(new Error('not needed')),
        () =>
          withClient(url(), async (c) => {
            await c.query(`SELECT set_config('application_name', 'bench-spec-run', false)`);
            await terminate('bench-spec-run');
            await new Promise((r) => setTimeout(r, 200));
            await c.query('SELECT 1');
            return runLoad(httpUrl, ['{}'], [], 1, 1);
          }),
      );
      expect(cell.result.failure).toBe('Client has encountered a connection error and is not queryable');
      expect(cell.result.ok).toBe(0);
    });

    it('starts a server that has exited again and measures the new one', async () => {
      const cell = await measureCell(
        server(true),
        async () => server(false),
        (s) => runLoad(s.url, ['{}'], [], 1, 1),
      );
      expect(cell.notes).toEqual(['ceiling server exited during the run (code 0)', 'ceiling server started again']);
      expect(cell.result.failure).toBeUndefined();
      expect(cell.result.ok).toBeGreaterThan(0);
    });

    it('records a failed row when the server cannot be started again', async () => {
      const cell = await measureCell(
        server(true),
        () => Promise.reject(new Error('ceiling server did not answer within 60 s')),
        (s) => runLoad(s.url, ['{}'], [], 1, 1),
      );
      expect(cell.result.failure).toBe(
        'ceiling server exited during the run (code 0); starting it again: ceiling server did not answer within 60 s',
      );
    });
  });
});

// A port nothing listens on: one the kernel gave out and took back.
function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as AddressInfo;
      s.close(() => resolve(port));
    });
  });
}
