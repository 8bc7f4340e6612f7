import { Logger, OnApplicationShutdown } from '@nestjs/common';
import { ThrottlerStorageRedisService } from '@nest-lab/throttler-storage-redis';
import { ThrottlerStorage } from '@nestjs/throttler';
import Redis from 'ioredis';
import { AppConfig } from '../config/app-config';
import { MemoryRateLimitStorage } from './memory-rate-limit.storage';

export const RATE_LIMIT_STORAGE = Symbol('RATE_LIMIT_STORAGE');

export type RateLimitStorage = ThrottlerStorage & Partial<OnApplicationShutdown>;
type ThrottlerStorageRecord = Awaited<ReturnType<ThrottlerStorage['increment']>>;

// Counters in this process by default; in Redis with REDIS_URL, so every instance counts against one limit.
export async function createRateLimitStorage(config: AppConfig): Promise<RateLimitStorage> {
  const memory = new MemoryRateLimitStorage();
  if (!config.redisUrl) return memory;
  const redis = new Redis(config.redisUrl, {
    lazyConnect: true,
    // Fail fast instead of queueing while Redis is away: a request must never wait on the limiter.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 2000,
    commandTimeout: 500,
  });
  const storage = new RedisWithFallbackStorage(redis, memory);
  // Connect before serving so the first requests already share counters; if Redis is down, start
  // anyway (ioredis keeps reconnecting) and count in memory meanwhile.
  await redis.connect().catch(() => undefined);
  return storage;
}

// Redis (@nest-lab/throttler-storage-redis: one atomic Lua script per hit, answering as rate-limit-window.ts
// says) with this process's memory counters as a stand-in while Redis is unreachable: limits stay per
// instance for that time instead of failing every request or dropping limits altogether.
export class RedisWithFallbackStorage implements ThrottlerStorage, OnApplicationShutdown {
  private readonly logger = new Logger('RateLimit');
  private readonly redisStorage: ThrottlerStorageRedisService;
  private degraded = false;

  constructor(
    private readonly redis: Redis,
    private readonly fallback: MemoryRateLimitStorage,
  ) {
    this.redisStorage = new ThrottlerStorageRedisService(redis);
    // ioredis reconnects by itself; without a listener it would print every failed attempt.
    redis.on('error', (error: Error) => this.degrade(error));
  }

  async increment(
    key: string,
    ttl: number,
    limit: number,
    blockDuration: number,
    name: string,
  ): Promise<ThrottlerStorageRecord> {
    try {
      const record = await this.redisStorage.increment(key, ttl, limit, blockDuration, name);
      if (this.degraded) {
        this.degraded = false;
        this.logger.log('Redis is reachable again; rate limits are shared across instances');
      }
      return record;
    } catch (error) {
      this.degrade(error as Error);
      return this.fallback.increment(key, ttl, limit, blockDuration, name);
    }
  }

  onApplicationShutdown(): void {
    this.redis.disconnect();
    this.fallback.onApplicationShutdown();
  }

  private degrade(error: Error): void {
    if (this.degraded) return;
    this.degraded = true;
    this.logger.warn(`Redis unavailable (${error.message}); counting rate limits in this instance until it returns`);
  }
}
