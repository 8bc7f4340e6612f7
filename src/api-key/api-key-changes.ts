import { Inject, Injectable, OnModuleDestroy } from '@nestjs/common';
import { APP_CONFIG, AppConfig, requireDatabaseUrl } from '../config/app-config';
import { NotificationListener } from '../database/notification-listener';
import { API_KEY_CHANGES_CHANNEL, ApiKeyRepository } from './api-key.repository';

export interface ApiKeyChangeSubscriber {
  /** The key with this hash was created, revoked or re-limited (here or by another process). */
  changed(keyHash: string): void;
  /** Changes may have gone unheard (listening started, or stopped): forget what was remembered. */
  reset(): void;
}

// What a running server hears of changes to keys: every write to a key is announced in its transaction
// (api-key.repository.ts), and a server listens on a connection of its own, so a key revoked with
// `npm run keys` on any machine is refused by every server on its next request. While not listening
// (the database away, or the built-in database) a server trusts a key it checked for
// API_KEY_CACHE_SECONDS, as before it heard anything.
@Injectable()
export class ApiKeyChanges implements OnModuleDestroy {
  private readonly subscribers: ApiKeyChangeSubscriber[] = [];
  private listener?: NotificationListener;

  constructor(
    private readonly repository: ApiKeyRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  subscribe(subscriber: ApiKeyChangeSubscriber): void {
    this.subscribers.push(subscriber);
  }

  /** A key this process wrote: its subscribers learn of it at once, without waiting to hear it. */
  changed(keyHash: string): void {
    for (const s of this.subscribers) s.changed(keyHash);
  }

  // Servers listen (createApp); command-line tools only announce. The built-in database serves every
  // connection from one session, where a NOTIFY reaches only the connection that sent it: not there.
  listen(): void {
    if (this.config.dbSharedSession) return;
    this.listener ??= new NotificationListener({
      connectionString: requireDatabaseUrl(this.config),
      channel: API_KEY_CHANGES_CHANNEL,
      applicationName: 'location-imagery-search-listen',
      connectTimeoutMs: this.config.dbConnectTimeoutMs,
      notify: (payload) => this.repository.notify(payload),
      onMessage: (keyHash) => this.changed(keyHash),
      onListening: () => this.subscribers.forEach((s) => s.reset()),
      onLost: () => this.subscribers.forEach((s) => s.reset()),
    });
    this.listener.start();
  }

  /** Whether a change made now is heard (tests wait for it; so could a readiness check). */
  get listening(): boolean {
    return this.listener?.listening ?? false;
  }

  async onModuleDestroy(): Promise<void> {
    await this.listener?.stop();
  }
}
