import net from 'node:net';
import { Prisma } from '@prisma/client';
import { databaseTrouble } from '../../src/common/database-errors';
import { PrismaService } from '../../src/database/prisma.service';
import { testConfig } from '../helpers/test-app';
import { TcpProxy } from '../helpers/tcp-proxy';

// The errors Prisma (pg driver adapter) really throws when the database is away or slow, classified.
describe('databaseTrouble on real failures', () => {
  const clients: PrismaService[] = [];
  const client = (databaseUrl: string) => {
    const prisma = new PrismaService(testConfig({ databaseUrl, dbConnectTimeoutMs: 300, dbStatementTimeoutMs: 200 }));
    clients.push(prisma);
    return prisma;
  };
  const failure = async (work: () => Promise<unknown>) => {
    try {
      await work();
    } catch (error) {
      return error;
    }
    throw new Error('expected the query to fail');
  };
  afterAll(() => Promise.all(clients.map((c) => c.$disconnect())));

  async function closedPortUrl(): Promise<string> {
    const server = net.createServer();
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as net.AddressInfo;
    await new Promise<void>((r) => server.close(() => r()));
    const u = new URL(process.env.DATABASE_URL!);
    u.port = String(port);
    return u.toString();
  }

  it('connection refused: model queries (P1001) and raw queries (P2010 with an adapter cause)', async () => {
    const prisma = client(await closedPortUrl());
    const model = await failure(() => prisma.apiKey.findUnique({ where: { keyHash: 'x' } }));
    const raw = await failure(() => prisma.$queryRaw`SELECT 1`);
    expect(model).toBeInstanceOf(Prisma.PrismaClientKnownRequestError);
    expect(databaseTrouble(model)).toBe('unavailable');
    expect(databaseTrouble(raw)).toBe('unavailable');
  });

  it('statement timeout (57014)', async () => {
    const prisma = client(process.env.DATABASE_URL!);
    const error = await failure(() => prisma.$queryRaw`SELECT pg_sleep(2)`);
    expect(databaseTrouble(error)).toBe('timeout');
  });

  it('a silent network path: connect timeout for new connections, read timeout for open ones', async () => {
    const proxy = TcpProxy.forUrl(process.env.DATABASE_URL!);
    await proxy.start();
    try {
      const prisma = client(proxy.url(process.env.DATABASE_URL!));
      await prisma.$queryRaw`SELECT 1`; // one open pooled connection
      await proxy.blackhole();
      const started = Date.now();
      const open = await failure(() => prisma.$queryRaw`SELECT 1`);
      const fresh = await failure(() => prisma.$queryRaw`SELECT 1`);
      expect(databaseTrouble(open)).toBe('timeout');
      expect(databaseTrouble(fresh)).toBe('unavailable');
      // read timeout (statement 200 ms + 1 s margin) plus connect timeout (300 ms), with slack
      expect(Date.now() - started).toBeLessThan(3000);
    } finally {
      await proxy.stop();
    }
  });

  it('leaves ordinary query errors alone (they stay 500s)', async () => {
    const prisma = client(process.env.DATABASE_URL!);
    expect(databaseTrouble(await failure(() => prisma.$queryRaw`SELECT * FROM no_such_table`))).toBeUndefined();
    expect(databaseTrouble(await failure(() => prisma.$queryRaw`SELECT 1/0`))).toBeUndefined();
    expect(databaseTrouble(new Error('boom'))).toBeUndefined();
  });
});
