import { Client, Pool } from 'pg';
import { Prisma } from '@prisma/client';
import { databaseTrouble } from '../../src/common/database-errors';
import { PrismaService } from '../../src/database/prisma.service';
import { testConfig } from '../helpers/test-app';
import { createThrowawayDatabase, currentKind, serverUrl, ThrowawayDatabase } from '../setup/test-database';

// What a PostgreSQL server does to the service's connections (an administrator, a restart, a database
// closed to connections, a failover to a standby), and what the service makes of it. Server only: the
// built-in database has no other sessions to end and no ALTER DATABASE.
const serverOnly = currentKind() === 'server' ? describe : describe.skip;

serverOnly('database faults on a real server', () => {
  let db: ThrowawayDatabase;
  let admin: Client;
  const clients: PrismaService[] = [];
  const service = () => {
    // A best-effort budget long enough that only the administrator ends the statement.
    const prisma = new PrismaService(
      testConfig({ databaseUrl: db.url, dbStatementTimeoutMs: 20_000, searchFallbackBudgetMs: 20_000, dbPoolSize: 2 }),
    );
    clients.push(prisma);
    return prisma;
  };
  const failure = async (work: Promise<unknown>) => {
    try {
      await work;
    } catch (error) {
      return error;
    }
    throw new Error('expected the query to fail');
  };
  const dbName = () => new URL(db.url).pathname.slice(1);
  // The statement's result once it succeeds, within 5 s; every failure before must be 'unavailable'.
  const recovered = async <T>(run: () => Promise<T>): Promise<T> => {
    for (let tries = 0; ; tries++) {
      try {
        return await run();
      } catch (error) {
        if (databaseTrouble(error) !== 'unavailable' || tries >= 50) throw error;
        await new Promise((r) => setTimeout(r, 100));
      }
    }
  };

  const terminateWhenRunning = async (marker: string) => {
    for (let i = 0; i < 200; i++) {
      const { rowCount } = await admin.query(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND query LIKE $2 AND pid <> pg_backend_pid()`,
        [dbName(), `%${marker}%`],
      );
      if (rowCount) return;
      await new Promise((r) => setTimeout(r, 25));
    }
    throw new Error(`no running statement with ${marker}`);
  };

  beforeAll(async () => {
    db = await createThrowawayDatabase('server');
    admin = new Client({ connectionString: serverUrl() });
    await admin.connect();
  });

  afterAll(async () => {
    await Promise.all(clients.map((c) => c.onModuleDestroy().catch(() => undefined)));
    await admin.query(`ALTER DATABASE "${dbName()}" ALLOW_CONNECTIONS true`);
    await admin.end();
    await db.drop();
  });

  // Before the fix the ended connection emitted 'error' with no listener while checked out, and the
  // process died ("Unhandled 'error' event ... 57P01").
  it('a best-effort statement whose connection an administrator ends fails as unavailable; the pool goes on', async () => {
    const prisma = service();
    // Its failure is awaited from the start: it may fail before the termination's own query returns.
    const running = failure(prisma.bestEffortQuery(Prisma.sql`SELECT pg_sleep(10), 'best-effort-marker'`));
    await terminateWhenRunning('best-effort-marker');
    const error = await running;
    expect((error as { code?: string }).code).toBe('57P01');
    expect(databaseTrouble(error)).toBe('unavailable');
    // The broken connection went back as broken: the next statements get working ones.
    for (let i = 0; i < 3; i++) expect(await prisma.bestEffortQuery(Prisma.sql`SELECT 1 AS one`)).toEqual([{ one: 1 }]);
    expect(await prisma.rawQuery(Prisma.sql`SELECT 2 AS two`)).toEqual([{ two: 2 }]);
  });

  it('an ordinary statement whose connection an administrator ends fails as unavailable', async () => {
    const prisma = service();
    const running = failure(prisma.rawQuery(Prisma.sql`SELECT pg_sleep(10), 'raw-marker'`));
    await terminateWhenRunning('raw-marker');
    expect(databaseTrouble(await running)).toBe('unavailable');
    // Recovered by itself: a pooled connection the end reached while idle may fail one statement
    // more (as unavailable, never otherwise) before the pool has dropped it.
    expect(await recovered(() => prisma.rawQuery(Prisma.sql`SELECT 1 AS one`))).toEqual([{ one: 1 }]);
  });

  // A client out of the pool (pool.connect(): a held transaction, Prisma's, or one just handed to a
  // waiter whose code has not run yet) whose backend ends while it waits: PostgreSQL's goodbye
  // (57P01) arrives with no statement in flight and is emitted as 'error' on the client. Before the
  // fix nothing listened while it was out, and the process died ("Unhandled 'error' event").
  const heldAndEnded = async (pool: Pool) => {
    const held = await pool.connect();
    const [{ pid }] = (await held.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows;
    const ended = new Promise<boolean>((r) => {
      held.once('end', () => r(true));
      setTimeout(() => r(false), 5_000).unref();
    });
    await admin.query('SELECT pg_terminate_backend($1)', [pid]);
    // The goodbye and the closed socket have both reached the client (an unheard 'error' stops it short).
    if (!(await ended)) {
      held.release(new Error('not closed'));
      throw new Error('the ended connection never closed');
    }
    return held;
  };

  it('a client held between statements whose backend is ended: its next statement is unavailable, nothing crashes', async () => {
    const prisma = service();
    const held = await heldAndEnded(prisma.readerPool);
    const error = await failure(held.query('SELECT 1'));
    expect(databaseTrouble(error)).toBe('unavailable');
    held.release();
    // The broken connection was discarded, not handed out again.
    for (let i = 0; i < 3; i++) expect(await prisma.rawQuery(Prisma.sql`SELECT 1 AS one`)).toEqual([{ one: 1 }]);
    expect(await prisma.bestEffortQuery(Prisma.sql`SELECT 2 AS two`)).toEqual([{ two: 2 }]);
  });

  it('a client ended after its last statement, before its release: released, discarded, nothing crashes', async () => {
    const prisma = service();
    const held = await heldAndEnded(prisma.readerPool);
    held.release();
    expect(prisma.readerPool.totalCount).toBe(0);
    expect(await prisma.rawQuery(Prisma.sql`SELECT 1 AS one`)).toEqual([{ one: 1 }]);
    // The same for the pool behind Prisma's own queries (the primary's).
    const primaryHeld = await heldAndEnded(prisma.pools.primary);
    primaryHeld.release();
    expect(await prisma.$queryRaw`SELECT 3 AS three`).toEqual([{ three: 3 }]);
  });

  it('a write reaching a read-only server (25006) is unavailable, not a bug', async () => {
    const prisma = service();
    // bestEffortQuery runs in a READ ONLY transaction, as a standby after a failover would.
    const error = await failure(prisma.bestEffortQuery(Prisma.sql`CREATE TABLE written_on_a_standby (id int)`));
    expect((error as { code?: string }).code).toBe('25006');
    expect(databaseTrouble(error)).toBe('unavailable');
  });

  it('a database that does not accept connections (55000) is unavailable, for raw and model queries', async () => {
    const prisma = service();
    await admin.query(`ALTER DATABASE "${dbName()}" ALLOW_CONNECTIONS false`);
    try {
      await admin.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1`, [dbName()]);
      const raw = await failure(prisma.rawQuery(Prisma.sql`SELECT 1`));
      const model = await failure(prisma.apiKey.findFirst());
      expect((raw as { code?: string }).code).toBe('55000');
      expect(databaseTrouble(raw)).toBe('unavailable');
      expect(databaseTrouble(model)).toBe('unavailable');
    } finally {
      await admin.query(`ALTER DATABASE "${dbName()}" ALLOW_CONNECTIONS true`);
    }
    expect(await prisma.rawQuery(Prisma.sql`SELECT 1 AS one`)).toEqual([{ one: 1 }]);
  });
});
