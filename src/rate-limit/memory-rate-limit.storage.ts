import { OnApplicationShutdown } from '@nestjs/common';
import { ThrottlerStorage } from '@nestjs/throttler';

type ThrottlerStorageRecord = Awaited<ReturnType<ThrottlerStorage['increment']>>;

interface Counter {
  hits: number;
  windowEndsAt: number;
  blockedUntil: number;
}

const SWEEP_INTERVAL_MS = 60_000;

// Fixed-window counters in this process, keeping the window's rule as the Redis storage's Lua script
// does (count, expire the window, block for blockDuration once over the limit: rate-limit-window.ts,
// whose cases both storages are tested against), so both modes behave alike. O(1) per request: @nestjs/throttler's own memory storage keeps one timestamp per hit and
// filters them all on every request, which costs milliseconds per request for a busy key.
export class MemoryRateLimitStorage implements ThrottlerStorage, OnApplicationShutdown {
  private readonly counters = new Map<string, Counter>();
  private sweeper?: NodeJS.Timeout;

  async increment(
    key: string,
    ttl: number,
    limit: number,
    blockDuration: number,
    name: string,
  ): Promise<ThrottlerStorageRecord> {
    this.startSweeping();
    const now = Date.now();
    const id = `${key}\u0000${name}`;
    let counter = this.counters.get(id);
    if (!counter || counter.windowEndsAt <= now) {
      counter = { hits: 0, windowEndsAt: now + ttl, blockedUntil: counter?.blockedUntil ?? 0 };
      this.counters.set(id, counter);
    }
    counter.hits++;
    if (counter.blockedUntil <= now && counter.hits > limit) counter.blockedUntil = now + blockDuration;
    const isBlocked = counter.blockedUntil > now;
    return {
      totalHits: counter.hits,
      timeToExpire: Math.ceil((counter.windowEndsAt - now) / 1000),
      isBlocked,
      timeToBlockExpire: isBlocked ? Math.ceil((counter.blockedUntil - now) / 1000) : 0,
    };
  }

  get size(): number {
    return this.counters.size;
  }

  // Forget counters whose window and block are both over, so memory follows the active clients.
  sweep(now = Date.now()): void {
    for (const [id, c] of this.counters) {
      if (c.windowEndsAt <= now && c.blockedUntil <= now) this.counters.delete(id);
    }
  }

  onApplicationShutdown(): void {
    clearInterval(this.sweeper);
    this.sweeper = undefined;
    this.counters.clear();
  }

  private startSweeping(): void {
    if (this.sweeper) return;
    this.sweeper = setInterval(() => this.sweep(), SWEEP_INTERVAL_MS);
    this.sweeper.unref();
  }
}
