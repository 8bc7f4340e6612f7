// The two reference servers, each run in its own process (`node -r ts-node/register/transpile-only
// bench-servers.ts ceiling|naive`) so they never share an event loop with the load generator:
// - ceiling: bare node:http + pg replaying exactly the statements our service sends for a body;
//   what the SQL alone allows, with no framework, validation or formatting.
// - naive: Express + pg as a reasonable first attempt would be written: ILIKE, an exact count,
//   ST_Distance ordering without the KNN operator.
// Environment: DATABASE_URL, PORT, DB_POOL_SIZE, DB_STATEMENT_TIMEOUT_MS, BENCH_STATEMENTS (ceiling).
import { readFileSync } from 'node:fs';
import { createServer, IncomingMessage, ServerResponse } from 'node:http';
import { Pool, PoolConfig, QueryResult } from 'pg';
import { SESSION_OPTIONS } from '../../src/database/session-options';
import type { RecordedRequest } from './bench-statements';

export type ServerKind = 'ours' | 'ceiling' | 'naive';
export const SERVER_KINDS: ServerKind[] = ['ours', 'ceiling', 'naive'];

// The ceiling: the same pool size, timeouts and session settings as our service's pool
// (src/database/prisma.service.ts). The naive peer: PostgreSQL's defaults and a timeout long enough
// for its full scans to finish, as a first attempt would have.
function poolConfig(applicationName: string, kind: 'ceiling' | 'naive'): PoolConfig {
  const timeout = kind === 'ceiling' ? Number(process.env.DB_STATEMENT_TIMEOUT_MS ?? 2000) : NAIVE_TIMEOUT_MS;
  return {
    connectionString: process.env.DATABASE_URL,
    max: Number(process.env.DB_POOL_SIZE ?? 10),
    connectionTimeoutMillis: kind === 'ceiling' ? 2000 : NAIVE_TIMEOUT_MS, // ours: DB_CONNECT_TIMEOUT_MS default
    statement_timeout: timeout,
    query_timeout: timeout + 1000,
    application_name: applicationName,
    ...(kind === 'ceiling' ? { options: SESSION_OPTIONS } : {}),
  };
}

const NAIVE_TIMEOUT_MS = 60_000;

// A statement for a request whose client is still there. The load generator gives up on a request
// after 10 s and sends another; the naive peer's full scans then queue up far more requests than it
// can answer, and without this it went on scanning for the abandoned ones after its run (waitIdle's
// cancelling gives up after 15 s), into the next class's first run, ours: dense_coordinates at one
// connection ran at 3.3 req/s after the naive peer's coordinates run, 82.6 alone (docs/benchmarks/history/2026-11-28-issue-36-second-round.md).
export async function queryWhileWanted(
  pool: Pool,
  res: ServerResponse,
  text: string,
  values: unknown[],
): Promise<QueryResult> {
  const client = await pool.connect();
  try {
    if (res.destroyed || res.socket?.destroyed !== false) throw new Error('the client has gone');
    return await client.query(text, values);
  } finally {
    client.release();
  }
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

export function startCeiling(port: number, recordedFile: string): void {
  const recorded = JSON.parse(readFileSync(recordedFile, 'utf8')) as RecordedRequest[];
  const byBody = new Map(recorded.map((r) => [r.body, r.statements]));
  const pool = new Pool(poolConfig('lis-bench-ceiling', 'ceiling'));
  pool.on('error', () => undefined);
  const server = createServer(async (req, res) => {
    try {
      const statements = byBody.get(await readBody(req));
      if (!statements) {
        res.writeHead(404).end();
        return;
      }
      // In order, as the service sends them (a typo's second statement follows the first's result).
      const rows: unknown[][] = [];
      for (const s of statements) rows.push((await queryWhileWanted(pool, res, s.text, s.values)).rows);
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(rows));
    } catch (error) {
      res.writeHead(500, { 'content-type': 'text/plain' }).end(String((error as Error).message));
    }
  });
  server.keepAliveTimeout = 60_000;
  server.listen(port, '127.0.0.1', () => console.log(`ceiling listening on ${port}`));
}

const COORDINATES = /^\s*(-?\d{1,2}(?:\.\d+)?)\s*,\s*(-?\d{1,3}(?:\.\d+)?)\s*$/;
const COLUMNS = `id, address, to_char(captured_at, 'YYYY-MM-DD') AS date, heading, interactive, image_url,
  ST_X(location) AS lon, ST_Y(location) AS lat`;

export function startNaive(port: number): void {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const express = require('express') as typeof import('express');
  const pool = new Pool(poolConfig('lis-bench-naive', 'naive'));
  pool.on('error', () => undefined);
  const app = express();
  app.use(express.json());
  app.post('/search', async (req, res) => {
    const { query, near, bbox } = req.body as {
      query?: string;
      near?: { lat?: number; lon?: number; radius_m?: number };
      bbox?: [number, number, number, number];
    };
    const limit = Number(req.body.limit ?? 10);
    const offset = (Number(req.body.page ?? 1) - 1) * limit;
    try {
      const point = COORDINATES.exec(query ?? '');
      if (point) {
        const { rows } = await queryWhileWanted(
          pool,
          res,
          `SELECT ${COLUMNS}, ST_Distance(location::geography, ST_SetSRID(ST_MakePoint($2, $1), 4326)::geography) AS distance
           FROM imagery ORDER BY distance LIMIT $3 OFFSET $4`,
          [Number(point[1]), Number(point[2]), limit, offset],
        );
        res.json({ data: rows, page: req.body.page ?? 1 });
        return;
      }
      const conditions: string[] = [];
      const params: unknown[] = [];
      const param = (v: unknown) => `$${params.push(v)}`;
      if (query !== undefined) conditions.push(`address ILIKE '%' || ${param(query)} || '%'`);
      if (near?.lat !== undefined && near.lon !== undefined) {
        const [lon, lat, radius] = [param(near.lon), param(near.lat), param(near.radius_m ?? 250)];
        conditions.push(
          `ST_DWithin(location::geography, ST_SetSRID(ST_MakePoint(${lon}, ${lat}), 4326)::geography, ${radius})`,
        );
      }
      if (bbox) conditions.push(`location && ST_MakeEnvelope(${bbox.map(param).join(', ')}, 4326)`);
      const where = conditions.length > 0 ? conditions.join(' AND ') : 'true';
      const n = params.length;
      const [page, count] = await Promise.all([
        queryWhileWanted(
          pool,
          res,
          `SELECT ${COLUMNS} FROM imagery WHERE ${where} ORDER BY captured_at DESC LIMIT $${n + 1} OFFSET $${n + 2}`,
          [...params, limit, offset],
        ),
        queryWhileWanted(pool, res, `SELECT count(*)::int AS total FROM imagery WHERE ${where}`, params),
      ]);
      res.json({ data: page.rows, total: count.rows[0].total, page: req.body.page ?? 1 });
    } catch (error) {
      res.status(500).json({ error: (error as Error).message });
    }
  });
  const server = app.listen(port, '127.0.0.1', () => console.log(`naive listening on ${port}`));
  server.keepAliveTimeout = 60_000;
}

if (require.main === module) {
  const kind = process.argv[2];
  const port = Number(process.env.PORT);
  if (kind === 'ceiling') startCeiling(port, process.env.BENCH_STATEMENTS!);
  else if (kind === 'naive') startNaive(port);
  else {
    console.error('usage: bench-servers.ts ceiling|naive');
    process.exit(2);
  }
  process.on('SIGTERM', () => process.exit(0));
}
