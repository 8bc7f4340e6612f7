import { Test, TestingModule } from '@nestjs/testing';
import { ApiKeyModule } from '../../src/api-key/api-key.module';
import { hashApiKey } from '../../src/api-key/api-key-hash';
import { ApiKeyRepository } from '../../src/api-key/api-key.repository';
import { ApiKeyService } from '../../src/api-key/api-key.service';
import { DatabaseModule } from '../../src/database/database.module';
import { PrismaService } from '../../src/database/prisma.service';
import { testConfig } from '../helpers/test-app';

describe('ApiKeyService on PostgreSQL', () => {
  let moduleRef: TestingModule;
  let keys: ApiKeyService;
  let prisma: PrismaService;

  beforeAll(async () => {
    moduleRef = await Test.createTestingModule({
      imports: [DatabaseModule.forRoot(testConfig()), ApiKeyModule],
    }).compile();
    await moduleRef.init();
    keys = moduleRef.get(ApiKeyService);
    prisma = moduleRef.get(PrismaService);
  });
  afterAll(() => moduleRef.close());

  it('stores only the hash and a short prefix, never the key', async () => {
    const { key, record } = await keys.create('storage');
    const row = await prisma.apiKey.findUniqueOrThrow({ where: { id: record.id } });
    expect(row.keyHash).toBe(hashApiKey(key));
    expect(row.prefix).toBe(key.slice(0, 12));
    expect(JSON.stringify(row)).not.toContain(key);
    await expect(keys.authenticate(key)).resolves.toMatchObject({ id: record.id, prefix: row.prefix });
  });

  it('registers a bootstrap key idempotently and never revives a revoked one', async () => {
    const key = `lis_bootstrap_${Date.now()}_abcdefghijklmnop`;
    const first = await keys.register(key, 'bootstrap');
    const second = await keys.register(key, 'bootstrap');
    expect(second.id).toBe(first.id);
    await keys.revoke(first.id);
    await keys.register(key, 'bootstrap');
    await expect(keys.authenticate(key)).rejects.toMatchObject({ code: 'INVALID_API_KEY' });
  });

  it('revokes by prefix, and refuses unknown or ambiguous prefixes', async () => {
    const { record } = await keys.create('by-prefix');
    await expect(keys.revoke(record.prefix)).resolves.toMatchObject({ id: record.id, revokedAt: expect.any(Date) });
    await expect(keys.revoke('lis_nothing-like-this')).rejects.toMatchObject({ code: 'API_KEY_NOT_FOUND' });
    await keys.create('one');
    await keys.create('two');
    await expect(keys.revoke('lis_')).rejects.toMatchObject({ code: 'AMBIGUOUS_API_KEY' });
  });

  it('refuses missing and unknown keys', async () => {
    await expect(keys.authenticate(undefined)).rejects.toMatchObject({ code: 'MISSING_API_KEY', status: 401 });
    await expect(keys.authenticate('')).rejects.toMatchObject({ code: 'MISSING_API_KEY' });
    await expect(keys.authenticate('lis_unknown')).rejects.toMatchObject({ code: 'INVALID_API_KEY', status: 401 });
  });

  it('stores a per-key rate limit, changes and clears it, and authenticates with it', async () => {
    const { key, record } = await keys.create('limited', 1200);
    expect(record.rateLimit).toBe(1200);
    await expect(keys.authenticate(key)).resolves.toMatchObject({ rateLimit: 1200 });
    await expect(keys.setRateLimit(record.prefix, 30)).resolves.toMatchObject({ id: record.id, rateLimit: 30 });
    await expect(keys.authenticate(key)).resolves.toMatchObject({ rateLimit: 30 });
    await keys.setRateLimit(record.id, null);
    await expect(keys.authenticate(key)).resolves.toMatchObject({ rateLimit: null });
    expect((await keys.create('default')).record.rateLimit).toBeNull();
  });

  it('refuses rate limits outside 1..100000, in the service and in the database', async () => {
    for (const bad of [0, -1, 1.5, 100_001, Number.NaN]) {
      await expect(keys.create('bad', bad)).rejects.toMatchObject({ code: 'INVALID_RATE_LIMIT', status: 400 });
    }
    const { record } = await keys.create('checked');
    await expect(keys.setRateLimit(record.id, 0)).rejects.toMatchObject({ code: 'INVALID_RATE_LIMIT' });
    await expect(keys.setRateLimit('lis_nothing-like-this', 5)).rejects.toMatchObject({ code: 'API_KEY_NOT_FOUND' });
    await expect(prisma.$executeRaw`UPDATE api_keys SET rate_limit = 0 WHERE id = ${record.id}::uuid`).rejects.toThrow(
      /api_keys_rate_limit_check/,
    );
  });

  it('remembers an accepted key for apiKeyCacheSeconds, forgets it at once when revoked here, never remembers a refusal', async () => {
    const { key, record } = await keys.create('cached');
    await keys.authenticate(key);
    // Revoked by another process (the keys CLI): this one still trusts its recent check for a while.
    await prisma.apiKey.update({ where: { id: record.id }, data: { revokedAt: new Date() } });
    await expect(keys.authenticate(key)).resolves.toMatchObject({ id: record.id });
    const uncached = new ApiKeyService(moduleRef.get(ApiKeyRepository), testConfig({ apiKeyCacheSeconds: 0 }));
    await expect(uncached.authenticate(key)).rejects.toMatchObject({ code: 'INVALID_API_KEY' });

    const second = await keys.create('revoked-here');
    await keys.authenticate(second.key);
    await keys.revoke(second.record.id);
    await expect(keys.authenticate(second.key)).rejects.toMatchObject({ code: 'INVALID_API_KEY' });

    // A refusal is looked up again next time: restored in the database, the key works at once.
    await prisma.apiKey.update({ where: { id: second.record.id }, data: { revokedAt: null } });
    await expect(keys.authenticate(second.key)).resolves.toMatchObject({ id: second.record.id });
  });

  it('refuses a key revoked or re-limited by another process once API_KEY_CACHE_SECONDS has passed (the documented bound)', async () => {
    const server = new ApiKeyService(moduleRef.get(ApiKeyRepository), testConfig({ apiKeyCacheSeconds: 1 }));
    const { key, record } = await keys.create('bound');
    await server.authenticate(key);
    const started = Date.now();
    await prisma.apiKey.update({ where: { id: record.id }, data: { rateLimit: 7 } });
    await prisma.apiKey.update({ where: { id: record.id }, data: { revokedAt: new Date() } });
    await expect(server.authenticate(key)).resolves.toMatchObject({ rateLimit: null }); // still trusted
    await new Promise((r) => setTimeout(r, Math.max(0, 1_050 - (Date.now() - started))));
    await expect(server.authenticate(key)).rejects.toMatchObject({ code: 'INVALID_API_KEY' });
  });
});
