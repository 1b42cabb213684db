import { Inject, Injectable, OnApplicationShutdown } from '@nestjs/common';
import { ThrottlerStorage } from '@nestjs/throttler';
import { Redis } from 'ioredis';
import { REDIS, RedisKeys } from '../../../runtime/src/index.js';
import { SharedCounter } from './shared-counter.js';

export interface ThrottlerRecord {
  totalHits: number;
  timeToExpire: number;
  isBlocked: boolean;
  timeToBlockExpire: number;
  /** End of the fixed window, epoch ms (what X-RateLimit-Reset reports). */
  windowEnd: number;
}

/**
 * @nestjs/throttler storage on fixed windows aligned to multiples of `ttl` (so every process agrees
 * on when a window resets) and counted in Redis through a SharedCounter.
 */
@Injectable()
export class RedisThrottlerStorage implements ThrottlerStorage, OnApplicationShutdown {
  private readonly counter: SharedCounter;

  constructor(
    @Inject(REDIS) redis: Redis,
    private readonly keys: RedisKeys,
  ) {
    this.counter = new SharedCounter(redis);
  }

  async increment(key: string, ttl: number, limit: number, _blockDuration: number, throttlerName: string): Promise<ThrottlerRecord> {
    const now = Date.now();
    const windowStart = now - (now % ttl);
    const windowEnd = windowStart + ttl;
    const hit = this.counter.hit(this.keys.key('rate', throttlerName, key, windowStart), limit, windowEnd + 1_000);
    const { allowed, count } = hit instanceof Promise ? await hit : hit;
    const secondsLeft = Math.ceil((windowEnd - now) / 1000);
    return { totalHits: count, timeToExpire: secondsLeft, isBlocked: !allowed, timeToBlockExpire: allowed ? 0 : secondsLeft, windowEnd };
  }

  async onApplicationShutdown(): Promise<void> {
    await this.counter.close();
  }
}
