import { randomUUID } from 'node:crypto';
import { Logger } from '@nestjs/common';
import { Client, Notification } from 'pg';

export interface NotificationListenerOptions {
  connectionString: string;
  /** A constant identifier (it is written into LISTEN as is). */
  channel: string;
  applicationName: string;
  connectTimeoutMs: number;
  /** Sends a NOTIFY on the channel through another connection (the probe proves delivery end to end). */
  notify: (payload: string) => Promise<void>;
  /** A message heard on the channel (the listener's own probes are not passed on). */
  onMessage: (payload: string) => void;
  /** Listening and heard its own probe: from now on every change is heard; nothing from before is. */
  onListening: () => void;
  /** Not hearing any more (connection lost, a probe went unheard): changes may go unheard until onListening. */
  onLost: () => void;
}

// How often the listener proves it still hears (a NOTIFY through another connection, heard back), and
// how long it waits for it: a connection that died silently (a network path cut, no reset) is found
// within PROBE_EVERY_MS + PROBE_TIMEOUT_MS, and a connection that cannot hear (a transaction-mode
// pooler in between) never counts as listening.
const PROBE_EVERY_MS = 30_000;
const PROBE_TIMEOUT_MS = 5_000;
const RETRY_MIN_MS = 500;
const RETRY_MAX_MS = 10_000;
const PROBE = 'probe:';
// A connection that went silent does not end cleanly: not waited for longer than this.
const END_WAIT_MS = 1_000;

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

// A dedicated PostgreSQL connection that LISTENs on one channel for as long as it runs, connecting again
// when it is lost (a restart, a failover, pg_terminate_backend, a silent network path).
export class NotificationListener {
  private readonly logger = new Logger('Database');
  private readonly probeId = `${PROBE}${randomUUID()}:`;
  private client?: Client;
  private stopped = true;
  private isListening = false;
  private probes = 0;
  private awaited = new Map<string, () => void>();
  private timer?: NodeJS.Timeout;
  private retryMs = RETRY_MIN_MS;
  private reportedDown = false;

  constructor(private readonly options: NotificationListenerOptions) {}

  /** Whether every message sent from now on is heard. */
  get listening(): boolean {
    return this.isListening;
  }

  /** Starts listening in the background: a database out of reach is tried again until it answers. */
  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    void this.run();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    const client = this.client;
    this.client = undefined;
    this.isListening = false;
    if (client) await Promise.race([client.end().catch(() => undefined), wait(END_WAIT_MS)]);
  }

  private async run(): Promise<void> {
    while (!this.stopped) {
      try {
        await this.connect();
        return;
      } catch (error) {
        if (this.stopped) return;
        this.drop(error as Error);
        await wait(this.retryMs);
        this.retryMs = Math.min(this.retryMs * 2, RETRY_MAX_MS);
      }
    }
  }

  private async connect(): Promise<void> {
    const client = new Client({
      connectionString: this.options.connectionString,
      application_name: this.options.applicationName,
      connectionTimeoutMillis: this.options.connectTimeoutMs,
      keepAlive: true,
    });
    this.client = client;
    // The server's goodbye, a reset, or the socket closing: the connection is lost, and tried again.
    client.on('error', (error) => this.lostConnection(client, error));
    client.on('end', () => this.lostConnection(client, new Error('connection ended')));
    client.on('notification', (message) => this.hear(message));
    await client.connect();
    await client.query(`LISTEN ${this.options.channel}`);
    await this.probe();
    if (this.client !== client || this.stopped) return;
    this.isListening = true;
    this.retryMs = RETRY_MIN_MS;
    if (this.reportedDown) this.logger.log(`Listening for ${this.options.channel} again`);
    this.reportedDown = false;
    this.options.onListening();
    this.schedule(client);
  }

  private schedule(client: Client): void {
    this.timer = setTimeout(() => {
      void this.probe().then(
        () => this.client === client && this.schedule(client),
        (error: Error) => this.lostConnection(client, error),
      );
    }, PROBE_EVERY_MS);
    this.timer.unref();
  }

  // Resolves once the listener heard a NOTIFY sent through another connection.
  private async probe(): Promise<void> {
    const payload = `${this.probeId}${++this.probes}`;
    let timer: NodeJS.Timeout | undefined;
    const heard = new Promise<void>((resolve, reject) => {
      this.awaited.set(payload, resolve);
      timer = setTimeout(
        () => reject(new Error(`its own NOTIFY went unheard for ${PROBE_TIMEOUT_MS} ms`)),
        PROBE_TIMEOUT_MS,
      );
    });
    try {
      await this.options.notify(payload);
      await heard;
    } finally {
      clearTimeout(timer);
      this.awaited.delete(payload);
    }
  }

  private hear(message: Notification): void {
    if (message.channel !== this.options.channel) return;
    const payload = message.payload ?? '';
    if (payload.startsWith(PROBE)) {
      this.awaited.get(payload)?.(); // another instance's probe: nothing to do
      return;
    }
    this.options.onMessage(payload);
  }

  // After the first probe was heard; a loss while connecting fails connect() itself (run() tries again).
  private lostConnection(client: Client, error: Error): void {
    if (this.client !== client || this.stopped || !this.isListening) return;
    this.drop(error);
    void this.run();
  }

  // Forgets the connection (once per connection), says so once per outage, and tells the owner.
  private drop(error: Error): void {
    const client = this.client;
    this.client = undefined;
    clearTimeout(this.timer);
    const was = this.isListening;
    this.isListening = false;
    if (!this.reportedDown) {
      this.logger.warn(`Not listening for ${this.options.channel} (trying again): ${error.message}`);
      this.reportedDown = true;
    }
    if (was) this.options.onLost();
    void client?.end().catch(() => undefined);
  }
}
