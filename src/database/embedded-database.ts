import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { Extension, PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import * as lockfile from 'proper-lockfile';
import { postgisExtension } from './postgis-bundle';

// pglite's contrib typings resolve only as ESM; its CommonJS build is what runs here.
/* eslint-disable @typescript-eslint/no-require-imports */
const { pg_trgm } = require('@electric-sql/pglite/contrib/pg_trgm') as { pg_trgm: Extension };
const { unaccent } = require('@electric-sql/pglite/contrib/unaccent') as { unaccent: Extension };
const { btree_gin } = require('@electric-sql/pglite/contrib/btree_gin') as { btree_gin: Extension };
/* eslint-enable @typescript-eslint/no-require-imports */

// PGlite runs one query at a time; a few connections let requests queue in the socket server
// instead of in the pool, and leave room for a CLI next to the server.
export const EMBEDDED_MAX_CONNECTIONS = 12;
export const EMBEDDED_POOL_SIZE = 4;
const LEAN_SHARED_BUFFERS = '2MB';
// A short-lived CLI runs PostgreSQL's and PostGIS's WebAssembly with V8's baseline compiler only: the
// optimizing tier's second copy of the code was most of the memory PostGIS added, and a CLI's work is
// over before that tier pays back (docs/operations.md#memory).
const LEAN_V8_FLAGS = ['--liftoff-only'];

export class EmbeddedDatabaseError extends Error {}

interface ServerInfo {
  url: string;
  pid: number;
}

// The built-in database used when DATABASE_URL is unset: PGlite (PostgreSQL compiled to WASM) with
// PostGIS, pg_trgm, unaccent and btree_gin, served on a loopback port so the app uses the same pg driver,
// Prisma adapter, SQL and migrations as with a real server.
export class EmbeddedDatabase {
  private constructor(
    readonly url: string,
    readonly dataDir: string,
    private readonly db: PGlite,
    private readonly server: PGLiteSocketServer,
    private readonly release: () => Promise<void>,
  ) {}

  /**
   * opts.template: a data directory to copy into a new one (see startup/built-in-template.ts).
   * opts.lean: for a short-lived CLI, a small buffer cache (the data directory says 128MB; the operating
   * system caches the files too) and PostGIS compiled only if a statement needs it (postgis-bundle.ts).
   */
  static async start(
    dataDirOption: string,
    opts: { port?: number; template?: string; lean?: boolean } = {},
  ): Promise<EmbeddedDatabase> {
    const dataDir = resolve(dataDirOption);
    if (opts.lean) for (const flag of LEAN_V8_FLAGS) setFlagsFromString(flag);
    const pgdata = join(dataDir, 'pgdata');
    mkdirSync(pgdata, { recursive: true });
    const release = await lockfile.lock(pgdata, { stale: 15_000, update: 5_000, realpath: false }).catch((e) => {
      if (e.code === 'ELOCKED') {
        throw new EmbeddedDatabaseError(
          `The built-in database in ${dataDir} is already open in another process (pid ${EmbeddedDatabase.serverInfo(dataDir)?.pid ?? 'unknown'}). ` +
            'Stop it first, or set DATABASE_URL to use a PostgreSQL server.',
        );
      }
      throw e;
    });
    try {
      // Under the lock, so two first starts cannot both copy; an empty pgdata is a new database.
      if (opts.template && readdirSync(pgdata).length === 0) copyWhole(opts.template, pgdata);
      const db = await PGlite.create({
        dataDir: pgdata,
        extensions: { postgis: await postgisExtension(), pg_trgm, unaccent, btree_gin },
        startParams: [
          ...PGlite.defaultStartParams,
          ...(opts.lean ? ['-c', `shared_buffers=${LEAN_SHARED_BUFFERS}`] : []),
        ],
      });
      // PGlite ignores connection startup options and serves every connection from its one session,
      // so the request pool's settings (createPool in prisma.service.ts) are set here, once.
      await db.exec('SET synchronize_seqscans = off; SET max_parallel_workers_per_gather = 0; SET jit = off');
      // PostGIS is compiled when first loaded: a server loads it now, so that no request waits for it.
      if (!opts.lean) await db.exec(`LOAD '$libdir/postgis-3'`);
      const server = new PGLiteSocketServer({
        db,
        host: '127.0.0.1',
        port: opts.port ?? 0,
        maxConnections: EMBEDDED_MAX_CONNECTIONS,
      });
      await server.start();
      const url = `postgresql://postgres@${server.getServerConn()}/postgres`;
      writeFileSync(join(dataDir, 'server.json'), JSON.stringify({ url, pid: process.pid } satisfies ServerInfo));
      return new EmbeddedDatabase(url, dataDir, db, server, release);
    } catch (error) {
      await release();
      throw error;
    }
  }

  // Where a running server in this data directory accepts connections, for CLIs run beside it.
  static serverInfo(dataDir: string): ServerInfo | undefined {
    const file = join(resolve(dataDir), 'server.json');
    if (!existsSync(file)) return undefined;
    try {
      const info = JSON.parse(readFileSync(file, 'utf8')) as ServerInfo;
      process.kill(info.pid, 0); // throws when that process is gone
      return info;
    } catch {
      return undefined;
    }
  }

  static isLocked(dataDir: string): boolean {
    const pgdata = join(resolve(dataDir), 'pgdata');
    return existsSync(pgdata) && lockfile.checkSync(pgdata, { stale: 15_000, realpath: false });
  }

  // PostgreSQL renames old WAL segments for reuse instead of deleting them (up to max_wal_size, 1 GB), so
  // after a bulk load most of the directory is segments ahead of the one in use
  // (docs/benchmarks.md#fig-spare-wal). Once the server has stopped cleanly those are unused (it makes
  // new ones as it needs them): a copy to hand out (startup/built-in-template.ts) stops without them.
  // The next segment is kept, for the shutdown checkpoint's record.
  async stopWithoutSpareWal(): Promise<void> {
    await this.db.query('CHECKPOINT');
    const { rows } = await this.db.query<{ segment: string }>(
      'SELECT pg_walfile_name(pg_current_wal_insert_lsn()) AS segment',
    );
    await this.stop();
    const wal = join(this.dataDir, 'pgdata', 'pg_wal');
    const segments = readdirSync(wal)
      .filter((name) => /^[0-9A-F]{24}$/.test(name))
      .sort();
    const ahead = segments.filter((name) => name > rows[0].segment);
    for (const spare of ahead.slice(1)) rmSync(join(wal, spare));
  }

  async stop(): Promise<void> {
    rmSync(join(this.dataDir, 'server.json'), { force: true });
    await this.server.stop();
    await this.db.close();
    await this.release();
  }
}

// A copy cut short (a full disk, a kill) must not leave a pgdata that looks like a database: the copy is
// made beside it and renamed onto the empty directory in one step, and a failed one is removed.
function copyWhole(from: string, to: string): void {
  const partial = `${to}.copying`;
  rmSync(partial, { recursive: true, force: true });
  try {
    cpSync(from, partial, { recursive: true });
    renameSync(partial, to);
  } finally {
    rmSync(partial, { recursive: true, force: true });
  }
}
