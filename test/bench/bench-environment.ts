// What the benchmark report records about the machine and the bench database (settings, load, plans),
// and waiting for the database to be idle between runs.
import { cpus, loadavg } from 'node:os';
import { withClient } from './bench-database';
import { SESSION_OPTIONS } from '../../src/database/session-options';

export interface Environment {
  postgres: string;
  postgis: string;
  settings: Record<string, string>;
  node: string;
  cpus: number;
  cpuModel: string;
}

const SETTINGS = [
  'shared_buffers',
  'work_mem',
  'effective_cache_size',
  'jit',
  'max_parallel_workers_per_gather',
  'random_page_cost',
  'max_connections',
];

export async function environment(url: string): Promise<Environment> {
  return withClient(url, async (c) => {
    const settings: Record<string, string> = {};
    for (const s of SETTINGS) settings[s] = (await c.query(`SHOW ${s}`)).rows[0][s];
    const postgres = (await c.query('SHOW server_version')).rows[0].server_version;
    const postgis = (await c.query('SELECT postgis_lib_version() AS v')).rows[0].v;
    return {
      postgres,
      postgis,
      settings,
      node: process.version,
      cpus: cpus().length,
      cpuModel: cpus()[0]?.model ?? '',
    };
  });
}

export const loadAverage = () => loadavg().map((l) => Number(l.toFixed(2)));

// EXPLAIN (ANALYZE, BUFFERS) of each statement a request sends, in order, with the session options our
// request connections use (no JIT above all: otherwise a plan's compile time shows as execution time).
// The statements run once first, unmeasured: a new connection fills its catalogue caches as it opens
// each table and index, which the server's pooled connections did long ago (`Of` at 1M records: the
// place lookup's execution 27.4 ms on a new connection, 3.1 ms on the next run; planning 3.6 -> 1.1).
export async function explain(url: string, statements: { text: string; values: unknown[] }[]): Promise<string> {
  return withClient(url, async (c) => {
    for (const option of SESSION_OPTIONS.split('-c ').filter((o) => o.trim())) {
      const [name, value] = option.trim().split('=');
      await c.query(`SELECT set_config($1, $2, false)`, [name, value]);
    }
    for (const s of statements) await c.query(s.text, s.values);
    const parts: string[] = [];
    for (const [i, s] of statements.entries()) {
      const { rows } = await c.query(`EXPLAIN (ANALYZE, BUFFERS) ${s.text}`, s.values);
      const plan = rows.map((r) => r['QUERY PLAN']).join('\n');
      parts.push(
        `-- statement ${i + 1} of ${statements.length}\n-- values: ${JSON.stringify(s.values)}\n${s.text.trim()}\n\n${plan}`,
      );
    }
    return `${parts.join('\n\n')}\n`;
  });
}

// Waits until no statement runs on the database but ours: a server may still be working through a
// queue after the load stopped. What still runs after `graceMs` is cancelled (the run it belonged
// to is over), again and again until it is quiet, so the next run starts on an idle database.
// Never throws: it runs between every two runs, its connection idle between polls, so a backend
// ended under it (a crash elsewhere in the cluster restarts every backend; someone's DROP DATABASE
// ... WITH (FORCE)) surfaced as pg's "Client has encountered a connection error and is not
// queryable" and ended the whole bench. It connects again until `maxMs`; what it could not do is
// returned, for the run's log.
export async function waitIdle(url: string, graceMs = 1000, maxMs = 15_000): Promise<string | undefined> {
  const active = `SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND state = 'active'`;
  const started = Date.now();
  let quiet = 0;
  let failure: string | undefined;
  while (quiet < 2 && Date.now() - started < maxMs) {
    try {
      await withClient(url, async (c) => {
        while (quiet < 2 && Date.now() - started < maxMs) {
          const { rowCount } = await c.query(active);
          quiet = rowCount === 0 ? quiet + 1 : 0;
          if (rowCount && Date.now() - started > graceMs)
            await c.query(`SELECT pg_cancel_backend(pid) FROM (${active}) a`);
          await sleep(100);
        }
      });
      failure = undefined;
    } catch (error) {
      quiet = 0;
      failure = `waiting for an idle database: ${(error as Error).message}`;
      await sleep(500);
    }
  }
  return failure;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
