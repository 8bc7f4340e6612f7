import { Injectable } from '@nestjs/common';
import { ApiKey } from '@prisma/client';
import { displayPrefix, generateApiKey, hashApiKey, hashesEqual } from './api-key-secret';
import { ApiKeyException, ApiKeyExceptionCode } from './api-key.exception';
import { ApiKeyRepository } from './api-key.repository';

export interface AuthenticatedKey {
  id: string;
  name: string;
  prefix: string;
}

// Longer than any key we issue or accept; anything longer is refused before hashing.
const MAX_KEY_LENGTH = 200;

@Injectable()
export class ApiKeyService {
  constructor(private readonly repository: ApiKeyRepository) {}

  async authenticate(presented: string | undefined): Promise<AuthenticatedKey> {
    if (!presented) {
      throw new ApiKeyException(ApiKeyExceptionCode.MISSING_API_KEY, 'Missing x-api-key header');
    }
    const invalid = new ApiKeyException(ApiKeyExceptionCode.INVALID_API_KEY, 'Invalid or revoked API key');
    if (presented.length > MAX_KEY_LENGTH) throw invalid;
    const hash = hashApiKey(presented);
    const key = await this.repository.findByHash(hash);
    // Looked up by hash; the constant-time compare guards against any lookup that is not exact.
    if (!key || !hashesEqual(key.keyHash, hash) || key.revokedAt) throw invalid;
    return { id: key.id, name: key.name, prefix: key.prefix };
  }

  async create(name: string): Promise<{ key: string; record: ApiKey }> {
    const key = generateApiKey();
    const record = await this.repository.create({ name, prefix: displayPrefix(key), keyHash: hashApiKey(key) });
    return { key, record };
  }

  // Registers a known key (BOOTSTRAP_API_KEY) idempotently; a revoked one stays revoked.
  register(key: string, name: string): Promise<ApiKey> {
    return this.repository.createIfAbsent({ name, prefix: displayPrefix(key), keyHash: hashApiKey(key) });
  }

  list(): Promise<ApiKey[]> {
    return this.repository.list();
  }

  async revoke(idOrPrefix: string): Promise<ApiKey> {
    const matches = await this.repository.findByIdOrPrefix(idOrPrefix);
    if (matches.length === 0) {
      throw new ApiKeyException(ApiKeyExceptionCode.API_KEY_NOT_FOUND, `No API key matches ${idOrPrefix}`);
    }
    if (matches.length > 1) {
      throw new ApiKeyException(
        ApiKeyExceptionCode.AMBIGUOUS_API_KEY,
        `${matches.length} API keys match ${idOrPrefix}; use the id or a longer prefix`,
      );
    }
    return matches[0].revokedAt ? matches[0] : this.repository.revoke(matches[0].id);
  }
}
