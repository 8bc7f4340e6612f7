import { Inject, Injectable, OnModuleDestroy } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { API_KEY_PREFIX, hashApiKey } from './api-key-hash';
import { ApiKeyChanges } from './api-key-changes';
import { ApiKeyRepository } from './api-key.repository';

// Shorter than any key accepted (BOOTSTRAP_API_KEY: 24 characters at least; a generated key's secret
// part is 43), or longer than any: never hashed.
const MIN_LENGTH = 24;
const MAX_LENGTH = 200;
// Keys made by another process are heard at once (api-key-changes.ts); read again this often anyway,
// for the times nothing is heard (the built-in database, a listener reconnecting).
const RELOAD_EVERY_MS = 5 * 60_000;

// The keys the server knows, whatever their form, so that the log never shows one: a key sent in a
// header other than x-api-key, or in a query, is recognised by its hash, and so is its secret part
// without `lis_`. A BOOTSTRAP_API_KEY need not look like a generated key at all. Revoked keys count too.
@Injectable()
export class KnownApiKeys implements OnModuleDestroy {
  private readonly hashes = new Set<string>();
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly repository: ApiKeyRepository,
    @Inject(APP_CONFIG) config: AppConfig,
    changes: ApiKeyChanges,
  ) {
    if (config.bootstrapApiKey) this.hashes.add(hashApiKey(config.bootstrapApiKey));
    changes.subscribe({ changed: (keyHash) => this.hashes.add(keyHash), reset: () => void this.load() });
  }

  /** Reads every key now and every RELOAD_EVERY_MS (servers, from createApp). */
  watch(): void {
    if (this.timer) return;
    void this.load();
    this.timer = setInterval(() => void this.load(), RELOAD_EVERY_MS);
    this.timer.unref();
  }

  /** Whether the text is a key the server knows, or the secret part of one. */
  readonly isKey = (text: string): boolean => {
    if (text.length < MIN_LENGTH || text.length > MAX_LENGTH + API_KEY_PREFIX.length) return false;
    return this.hashes.has(hashApiKey(text)) || this.hashes.has(hashApiKey(API_KEY_PREFIX + text));
  };

  onModuleDestroy(): void {
    clearInterval(this.timer);
  }

  private async load(): Promise<void> {
    try {
      for (const keyHash of await this.repository.allKeyHashes()) this.hashes.add(keyHash);
    } catch {
      // The database away: what is known stays known, and the next load tries again.
    }
  }
}
