import { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import { ApiKeyChanges } from '../../src/api-key/api-key-changes';
import { displayPrefix } from '../../src/api-key/api-key-hash';
import { cli } from '../helpers/cli-tools';
import { createKey, feature, importFixture, prismaClient, resetImagery, startApp } from '../helpers/test-app';
import { currentKind } from '../setup/test-database';

jest.setTimeout(120_000);

const LISTEN_APPLICATION = 'location-imagery-search-listen';

async function until(what: string, condition: () => boolean | Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const started = Date.now();
  while (!(await condition())) {
    if (Date.now() - started > timeoutMs) throw new Error(`waited ${timeoutMs} ms for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

// Two servers on one database, each trusting a key it checked for API_KEY_CACHE_SECONDS (10 s by
// default): a key revoked or re-limited with `npm run keys` must count on both at their next request.
// Server only: the built-in database has one server, and no NOTIFY between its connections (there a
// change made elsewhere counts within API_KEY_CACHE_SECONDS, docs/security.md).
const serverOnly = currentKind() === 'server' ? describe : describe.skip;

serverOnly('key changes on every server at once', () => {
  const servers: NestExpressApplication[] = [];
  const prisma = prismaClient();
  const search = (server: NestExpressApplication, key: string) =>
    request(server.getHttpServer()).post('/search').set('x-api-key', key).send({ query: 'Revocation Road' });
  const listeningOnBoth = () =>
    until('both servers to listen', () => servers.every((s) => s.get(ApiKeyChanges).listening));
  const listenBackends = async () =>
    (
      await prisma.$queryRaw<Array<{ pid: number }>>`
        SELECT pid FROM pg_stat_activity WHERE application_name = ${LISTEN_APPLICATION} AND datname = current_database()`
    ).map((r) => r.pid);

  beforeAll(async () => {
    await resetImagery();
    await importFixture([feature('Revocation Road 1')]);
    servers.push(await startApp({ apiKeyCacheSeconds: 10 }), await startApp({ apiKeyCacheSeconds: 10 }));
    await listeningOnBoth();
  });
  afterAll(async () => {
    for (const server of servers) await server.close();
    await prisma.$disconnect();
  });

  // Accepted twice on each server, so the second answer came from its memory of the key.
  async function acceptedOnBoth(key: string): Promise<void> {
    for (const server of servers) {
      for (let i = 0; i < 2; i++) expect((await search(server, key)).status).toBe(200);
    }
  }

  async function revokeWithCli(key: string): Promise<void> {
    const run = await cli('keys', ['revoke', displayPrefix(key)]).done;
    expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: expect.any(String) });
  }

  async function refusedOnBoth(key: string): Promise<void> {
    for (const server of servers) {
      const res = await search(server, key);
      expect({ status: res.status, code: res.body.error?.code }).toEqual({ status: 401, code: 'INVALID_API_KEY' });
    }
  }

  it('refuses a key revoked with the keys CLI on both servers on their very next request', async () => {
    const key = await createKey(servers[0], 'revoked-on-both');
    await acceptedOnBoth(key);
    await revokeWithCli(key);
    await refusedOnBoth(key);
  });

  it('applies a rate limit set with the keys CLI on both servers on their next request', async () => {
    const key = await createKey(servers[1], 'limited-on-both');
    await acceptedOnBoth(key);
    const run = await cli('keys', ['set-rate-limit', displayPrefix(key), '7']).done;
    expect(run.code).toBe(0);
    for (const server of servers) {
      expect((await search(server, key)).headers['ratelimit-policy']).toBe('"per-key";q=7;w=60');
    }
  });

  it('listens again after its connection is terminated, and then refuses a revoked key at once', async () => {
    const before = await listenBackends();
    expect(before).toHaveLength(2);
    await prisma.$queryRaw`SELECT pg_terminate_backend(pid) FROM unnest(${before}::int[]) AS pid`;
    await until('new listening connections', async () => {
      const now = await listenBackends();
      return now.length === 2 && now.every((pid) => !before.includes(pid));
    });
    await listeningOnBoth();
    const key = await createKey(servers[0], 'revoked-after-reconnect');
    await acceptedOnBoth(key);
    await revokeWithCli(key);
    await refusedOnBoth(key);
  });
});
