import { Inject, Injectable, Optional } from '@nestjs/common';
import { ApiKey } from '@prisma/client';
import { LRUCache } from 'lru-cache';
import { APP_CONFIG, AppConfig, RATE_LIMIT_MAX } from '../config/app-config';
import { displayPrefix, generateApiKey, hashApiKey, hashesEqual } from './api-key-hash';
import { ApiKeyChanges } from './api-key-changes';
import { ApiKeyException, ApiKeyExceptionCode } from './api-key.exception';
import { ApiKeyRepository } from './api-key.repository';

export interface AuthenticatedKey {
  id: string;
  name: string;
  prefix: string;
  /** Requests per minute for this key; null means the server default. */
  rateLimit: number | null;
}

// Longer than any key we issue or accept; anything longer is refused before hashing.
const MAX_KEY_LENGTH = 200;
// Accepted keys remembered per process (by hash; refusals never are, so guessing cannot fill it).
const CACHED_KEYS = 10_000;

@Injectable()
export class ApiKeyService {
  // Saves a database round trip per request (docs/benchmarks.md#fig-api-key-cache). A key revoked or
  // re-limited by another process (the keys CLI) is forgotten as soon as this server hears of it
  // (api-key-changes.ts); unheard (not listening), it takes effect within apiKeyCacheSeconds.
  private readonly accepted: LRUCache<string, AuthenticatedKey> | null;
  // Counts the changes heard: a lookup that a change overtook may have read the key as it was.
  private changesHeard = 0;

  constructor(
    private readonly repository: ApiKeyRepository,
    @Inject(APP_CONFIG) config: AppConfig,
    @Optional() private readonly changes?: ApiKeyChanges,
  ) {
    this.accepted =
      config.apiKeyCacheSeconds > 0 ? new LRUCache({ max: CACHED_KEYS, ttl: config.apiKeyCacheSeconds * 1000 }) : null;
    changes?.subscribe({ changed: (keyHash) => this.forget(keyHash), reset: () => this.forget() });
  }

  async authenticate(presented: string | undefined): Promise<AuthenticatedKey> {
    if (!presented) {
      throw new ApiKeyException(ApiKeyExceptionCode.MISSING_API_KEY, 'Missing x-api-key header');
    }
    const invalid = () => new ApiKeyException(ApiKeyExceptionCode.INVALID_API_KEY, 'Invalid or revoked API key');
    if (presented.length > MAX_KEY_LENGTH) throw invalid();
    const hash = hashApiKey(presented);
    const remembered = this.accepted?.get(hash);
    if (remembered) return remembered;
    const heard = this.changesHeard;
    const key = await this.repository.findByHash(hash);
    // Looked up by hash; the constant-time compare guards against any lookup that is not exact.
    if (!key || !hashesEqual(key.keyHash, hash) || key.revokedAt) throw invalid();
    const accepted = { id: key.id, name: key.name, prefix: key.prefix, rateLimit: key.rateLimit };
    if (heard === this.changesHeard) this.accepted?.set(hash, accepted);
    return accepted;
  }

  // A key this process wrote: forgotten here, and known to the log's redaction (known-api-keys.ts).
  private changed(keyHash: string): void {
    if (this.changes) this.changes.changed(keyHash);
    else this.forget(keyHash);
  }

  // One key (by hash), or every key: looked up again on its next request.
  private forget(keyHash?: string): void {
    this.changesHeard++;
    if (keyHash === undefined) this.accepted?.clear();
    else this.accepted?.delete(keyHash);
  }

  async create(name: string, rateLimit: number | null = null): Promise<{ key: string; record: ApiKey }> {
    checkRateLimit(rateLimit);
    const key = generateApiKey();
    const record = await this.repository.create({
      name,
      prefix: displayPrefix(key),
      keyHash: hashApiKey(key),
      rateLimit,
    });
    this.changed(record.keyHash);
    return { key, record };
  }

  // A new key only when none exists yet (first start without BOOTSTRAP_API_KEY); undefined otherwise.
  async createFirstKey(name: string): Promise<string | undefined> {
    const key = generateApiKey();
    const record = await this.repository.createIfNoKeyExists({
      name,
      prefix: displayPrefix(key),
      keyHash: hashApiKey(key),
    });
    if (!record) return undefined;
    this.changed(record.keyHash);
    return key;
  }

  // Registers a known key (BOOTSTRAP_API_KEY) idempotently; a revoked one stays revoked.
  async register(key: string, name: string): Promise<ApiKey> {
    const record = await this.repository.createIfAbsent({ name, prefix: displayPrefix(key), keyHash: hashApiKey(key) });
    this.changed(record.keyHash);
    return record;
  }

  list(): Promise<ApiKey[]> {
    return this.repository.list();
  }

  async revoke(idOrPrefix: string): Promise<ApiKey> {
    const key = await this.findOne(idOrPrefix);
    const revoked = key.revokedAt ? key : await this.repository.revoke(key.id);
    // Forgotten after the write, so a request in between cannot remember the key as it was.
    this.changed(key.keyHash);
    return revoked;
  }

  // null returns the key to the server default (RATE_LIMIT_PER_MINUTE); on every server's next request.
  async setRateLimit(idOrPrefix: string, rateLimit: number | null): Promise<ApiKey> {
    checkRateLimit(rateLimit);
    const key = await this.findOne(idOrPrefix);
    const updated = await this.repository.setRateLimit(key.id, rateLimit);
    this.changed(key.keyHash);
    return updated;
  }

  private async findOne(idOrPrefix: string): Promise<ApiKey> {
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
    return matches[0];
  }
}

function checkRateLimit(rateLimit: number | null): void {
  if (rateLimit === null || (Number.isInteger(rateLimit) && rateLimit >= 1 && rateLimit <= RATE_LIMIT_MAX)) return;
  throw new ApiKeyException(
    ApiKeyExceptionCode.INVALID_RATE_LIMIT,
    `rate limit must be an integer between 1 and ${RATE_LIMIT_MAX} requests per minute`,
  );
}
