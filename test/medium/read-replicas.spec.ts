import { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import { PrismaService } from '../../src/database/prisma.service';
import { Migrator } from '../../src/database/migrator';
import { LocalCluster, query } from '../helpers/local-cluster';
import { createKey, feature, importFixture, startApp } from '../helpers/test-app';

// Reads through a real streaming replica (pg_basebackup -R of a primary cluster of the test's own), and
// what happens to searches when it goes away and comes back.
describe('read replicas (DATABASE_REPLICA_URLS)', () => {
  const testDatabaseUrl = process.env.DATABASE_URL;
  let primary: LocalCluster;
  let replica: LocalCluster;
  let replicaUrl: string;
  let app: NestExpressApplication;
  let router: PrismaService['reads'];
  let key: string;

  const search = (q: string) =>
    request(app.getHttpServer()).post('/search').set('x-api-key', key).send({ query: q, limit: 5 });
  const reads = (pool: string) => router.reads.get(pool) ?? 0;
  const ready = async () => (await request(app.getHttpServer()).get('/health/ready')).body.details.replicas;
  async function until(condition: () => boolean | Promise<boolean>, what: string, timeoutMs = 10_000) {
    const deadline = Date.now() + timeoutMs;
    while (!(await condition())) {
      if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  beforeAll(async () => {
    primary = await LocalCluster.primary();
    await query(primary.url('postgres'), 'CREATE DATABASE lis');
    await new Migrator(primary.url('lis')).migrate();
    // The helpers (importFixture) write to DATABASE_URL: this file's primary until afterAll.
    process.env.DATABASE_URL = primary.url('lis');
    replica = await primary.replica();
    replicaUrl = replica.url('lis');
    app = await startApp({ databaseReplicaUrls: [replicaUrl], replicaCheckIntervalMs: 200, dbConnectTimeoutMs: 1000 });
    router = app.get(PrismaService).reads;
    key = await createKey(app, 'replicas');
  }, 60_000);
  afterAll(async () => {
    process.env.DATABASE_URL = testDatabaseUrl;
    await app?.close();
    await replica?.remove();
    await primary?.remove();
  });

  it('finds data written on the primary through the replica, and says so in readiness', async () => {
    expect(await query<{ standby: boolean }>(replicaUrl, 'SELECT pg_is_in_recovery() AS standby')).toEqual([
      { standby: true },
    ]);
    await importFixture([feature('Replicagasse 7, 9490 Vaduz')]);
    await replica.caughtUpWith(primary);

    const before = { replica: reads('replica-1'), primary: reads('primary') };
    const res = await search('Replicagasse 7 Vaduz').expect(200);
    expect(res.body.data.map((r: { address: string }) => r.address)).toContain('Replicagasse 7, 9490 Vaduz');
    expect(reads('replica-1')).toBeGreaterThan(before.replica);
    expect(reads('primary')).toBe(before.primary);
    expect(await ready()).toMatchObject({
      status: 'up',
      inUse: [{ name: 'replica-1', where: expect.stringContaining(`:${replica.port}/`) }],
      skipped: [],
    });
  });

  it('keeps answering through the primary while the replica is stopped, and takes it back when it returns', async () => {
    // A light load across the stop: every search must answer, the ones cut mid-flight are retried.
    const state = { running: true };
    const statuses: number[] = [];
    const load = (async () => {
      while (state.running) statuses.push((await search('Replicagasse Vaduz')).status);
    })();
    await until(() => statuses.length >= 5, 'searches ran on the replica');
    await replica.stop();
    await until(() => router.states()[0].inUse === false, 'the replica is skipped');
    const [primaryBefore, answeredBefore] = [reads('primary'), statuses.length];
    await until(
      () => reads('primary') >= primaryBefore + 5 && statuses.length > answeredBefore + 1,
      'searches ran on the primary',
    );
    expect(await ready()).toMatchObject({
      inUse: [],
      skipped: [{ name: 'replica-1', reason: expect.stringMatching(/unreachable|failed a read/) }],
    });

    await replica.start();
    await until(() => router.states()[0].inUse, 'the replica is back in use');
    const [replicaBefore, answeredAfter] = [reads('replica-1'), statuses.length];
    await until(
      () => reads('replica-1') >= replicaBefore + 5 && statuses.length > answeredAfter + 1,
      'searches ran on the replica again',
    );
    state.running = false;
    await load;
    // Searches answered before, during and after the outage (the waits above), and none failed.
    expect(statuses.filter((s) => s !== 200)).toEqual([]);
  }, 40_000);

  it('skips a replica that lags more than REPLICA_MAX_LAG_S, and counts an idle one as caught up', async () => {
    // Idle: the last replayed commit may be old, but nothing is waiting to be replayed.
    await replica.caughtUpWith(primary);
    await router.check();
    expect(router.states()[0]).toMatchObject({ inUse: true });

    await query(replicaUrl, 'SELECT pg_wal_replay_pause()');
    try {
      const lagging = await startApp({
        databaseReplicaUrls: [replicaUrl],
        replicaMaxLagSeconds: 1,
        replicaCheckIntervalMs: 100_000,
      });
      try {
        const lagRouter = lagging.get(PrismaService).reads;
        // A commit the paused replica received but has not replayed, then more than a second.
        await importFixture([feature('Lagweg 1, 9490 Vaduz')]);
        await new Promise((r) => setTimeout(r, 1500));
        await lagRouter.check();
        expect(lagRouter.states()[0]).toMatchObject({
          inUse: false,
          reason: expect.stringMatching(/^lags \d+\.\d s \(REPLICA_MAX_LAG_S is 1\)$/),
        });
        expect(lagRouter.states()[0].lagSeconds).toBeGreaterThan(1);
        expect(lagRouter.pick()).toBeUndefined();

        await query(replicaUrl, 'SELECT pg_wal_replay_resume()');
        await replica.caughtUpWith(primary);
        await lagRouter.check();
        expect(lagRouter.states()[0]).toMatchObject({ inUse: true });
      } finally {
        await lagging.close();
      }
    } finally {
      await query(replicaUrl, 'SELECT pg_wal_replay_resume()').catch(() => undefined);
    }
  });
});
