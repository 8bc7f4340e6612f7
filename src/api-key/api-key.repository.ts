import { Injectable } from '@nestjs/common';
import { ApiKey, Prisma } from '@prisma/client';
import { PrismaService } from '../database/prisma.service';

export type AuthenticationRow = Pick<ApiKey, 'id' | 'name' | 'prefix' | 'keyHash' | 'revokedAt' | 'rateLimit'>;

@Injectable()
export class ApiKeyRepository {
  constructor(private readonly prisma: PrismaService) {}

  // On the request path: the least-privileged connection (DATABASE_READONLY_URL when set), on the
  // pg pool directly, since Prisma's query compiler would cost more than the lookup itself.
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
  async createIfAbsent(data: { name: string; prefix: string; keyHash: string }): Promise<ApiKey> {
    return this.prisma.apiKey.upsert({ where: { keyHash: data.keyHash }, create: data, update: {} });
  }

  create(data: { name: string; prefix: string; keyHash: string; rateLimit?: number | null }): Promise<ApiKey> {
    return this.prisma.apiKey.create({ data });
  }

  list(): Promise<ApiKey[]> {
    return this.prisma.apiKey.findMany({ orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
  }

  findByIdOrPrefix(idOrPrefix: string): Promise<ApiKey[]> {
    const isUuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(idOrPrefix);
    return this.prisma.apiKey.findMany({
      where: isUuid ? { id: idOrPrefix.toLowerCase() } : { prefix: { startsWith: idOrPrefix } },
    });
  }

  revoke(id: string): Promise<ApiKey> {
    return this.prisma.apiKey.update({ where: { id }, data: { revokedAt: new Date() } });
  }

  setRateLimit(id: string, rateLimit: number | null): Promise<ApiKey> {
    return this.prisma.apiKey.update({ where: { id }, data: { rateLimit } });
  }
}
