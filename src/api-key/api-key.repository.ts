import { Injectable } from '@nestjs/common';
import { ApiKey, Prisma } from '@prisma/client';
import { GenerateSql, NoSql, SAMPLE_UUID, SqlSubject } from '../database/generate-sql';
import { PrismaService } from '../database/prisma.service';

// Where every write to a key is announced (its key hash as the payload), so that each running server
// forgets what it remembered of that key at once (api-key-changes.ts).
export const API_KEY_CHANGES_CHANNEL = 'lis_api_keys';

type Transaction = Prisma.TransactionClient;

export type AuthenticationRow = Pick<ApiKey, 'id' | 'name' | 'prefix' | 'keyHash' | 'revokedAt' | 'rateLimit'>;

const SAMPLE_KEY = { name: 'sample', prefix: 'lis_sample', keyHash: '0'.repeat(64) };
// A row as the recording database answers Prisma (columns by their database names).
const KEY_ROW = {
  id: SAMPLE_UUID,
  name: 'sample',
  prefix: 'lis_sample',
  key_hash: '0'.repeat(64),
  created_at: new Date(0),
  revoked_at: null,
  last_used_at: null,
  rate_limit: null,
};
const NO_KEYS = { _count$_all: 0 };

@SqlSubject((db) => new ApiKeyRepository(db.prisma))
@Injectable()
export class ApiKeyRepository {
  constructor(private readonly prisma: PrismaService) {}

  // On the request path: the least-privileged connection (DATABASE_READONLY_URL when set), on the
  // pg pool directly, since Prisma's query compiler would cost more than the lookup itself.
  @GenerateSql({ params: () => [SAMPLE_KEY.keyHash] })
  async findByHash(keyHash: string): Promise<AuthenticationRow | null> {
    const [row] = await this.prisma.rawQuery<AuthenticationRow>(ApiKeyRepository.findByHashSql(keyHash));
    return row ?? null;
  }

  // Unique index api_keys_key_hash_key.
  static findByHashSql(keyHash: string): Prisma.Sql {
    return Prisma.sql`
      SELECT id, name, prefix, key_hash AS "keyHash", revoked_at AS "revokedAt", rate_limit AS "rateLimit"
      FROM api_keys WHERE key_hash = ${keyHash}`;
  }

  // Inserts unless a key with this hash exists; never revives a revoked key.
  @GenerateSql({ params: () => [SAMPLE_KEY], answers: [[], [], [{ id: SAMPLE_UUID }], [KEY_ROW]] })
  async createIfAbsent(data: { name: string; prefix: string; keyHash: string }): Promise<ApiKey> {
    return this.announced((tx) => tx.apiKey.upsert({ where: { keyHash: data.keyHash }, create: data, update: {} }));
  }

  // The first-run key: inserted only while the table holds no key at all (revoked ones count). The lock
  // makes API instances starting together agree: one inserts, the others see its row.
  @GenerateSql({ name: 'no key yet', params: () => [SAMPLE_KEY], answers: [[NO_KEYS], [], [], [NO_KEYS], [KEY_ROW]] })
  async createIfNoKeyExists(data: { name: string; prefix: string; keyHash: string }): Promise<ApiKey | null> {
    if ((await this.prisma.apiKey.count()) > 0) return null;
    return this.prisma.$transaction(async (tx) => {
      await tx.$executeRaw`LOCK TABLE api_keys IN SHARE ROW EXCLUSIVE MODE`;
      if ((await tx.apiKey.count()) > 0) return null;
      return announce(tx, await tx.apiKey.create({ data }));
    });
  }

  @GenerateSql({ params: () => [{ ...SAMPLE_KEY, rateLimit: 120 }], answers: [[], [KEY_ROW]] })
  create(data: { name: string; prefix: string; keyHash: string; rateLimit?: number | null }): Promise<ApiKey> {
    return this.announced((tx) => tx.apiKey.create({ data }));
  }

  @GenerateSql()
  list(): Promise<ApiKey[]> {
    return this.prisma.apiKey.findMany({ orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
  }

  @GenerateSql({ name: 'an id', params: () => [SAMPLE_UUID] }, { name: 'a prefix', params: () => ['lis_sam'] })
  findByIdOrPrefix(idOrPrefix: string): Promise<ApiKey[]> {
    const isUuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(idOrPrefix);
    return this.prisma.apiKey.findMany({
      where: isUuid ? { id: idOrPrefix.toLowerCase() } : { prefix: { startsWith: idOrPrefix } },
    });
  }

  @GenerateSql({ params: () => [SAMPLE_UUID], answers: [[], [KEY_ROW]] })
  revoke(id: string): Promise<ApiKey> {
    return this.announced((tx) => tx.apiKey.update({ where: { id }, data: { revokedAt: new Date() } }));
  }

  @GenerateSql({ params: () => [SAMPLE_UUID, 120], answers: [[], [KEY_ROW]] })
  setRateLimit(id: string, rateLimit: number | null): Promise<ApiKey> {
    return this.announced((tx) => tx.apiKey.update({ where: { id }, data: { rateLimit } }));
  }

  // On the primary: a standby refuses NOTIFY, and listeners listen there.
  @GenerateSql({ params: () => ['probe:sample'] })
  async notify(payload: string): Promise<void> {
    await this.prisma.$executeRaw`SELECT pg_notify(${API_KEY_CHANGES_CHANNEL}, ${payload})`;
  }

  // The hashes of every key, revoked ones included (the log redacts any key it knows). On the reader,
  // off the request path (at start, when listening starts, every few minutes).
  @GenerateSql()
  async allKeyHashes(): Promise<string[]> {
    const rows = await this.prisma.rawQuery<{ keyHash: string }>(ApiKeyRepository.allKeyHashesSql());
    return rows.map((r) => r.keyHash);
  }

  static allKeyHashesSql(): Prisma.Sql {
    return Prisma.sql`SELECT key_hash AS "keyHash" FROM api_keys`;
  }

  // A write and its announcement in one transaction: heard by every server at its commit, not before.
  @NoSql("runs a write of the methods above with its announcement (both shown in each method's statements)")
  private announced(write: (tx: Transaction) => Promise<ApiKey>): Promise<ApiKey> {
    return this.prisma.$transaction(async (tx) => announce(tx, await write(tx)));
  }
}

async function announce(tx: Transaction, key: ApiKey): Promise<ApiKey> {
  await tx.$executeRaw`SELECT pg_notify(${API_KEY_CHANGES_CHANNEL}, ${key.keyHash})`;
  return key;
}
