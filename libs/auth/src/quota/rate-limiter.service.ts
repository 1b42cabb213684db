import { Inject, Injectable, OnApplicationShutdown } from '@nestjs/common';
import { Redis } from 'ioredis';
import { REDIS, RedisKeys } from '#runtime';
import { rateWindowAt } from '../consumers/plans.js';
import { SharedCounter } from './shared-counter.js';

export interface RateDecision {
  allowed: boolean;
  /** Requests counted in the window, this one included when allowed. */
  count: number;
  /** End of the fixed window, epoch ms: what X-RateLimit-Reset reports. */
  windowEnd: number;
}

/**
 * Requests per minute per consumer, on fixed windows aligned to the minute (so every process agrees
 * on when a window resets), counted in Redis through a SharedCounter.
 */
@Injectable()
export class RateLimiterService implements OnApplicationShutdown {
  private readonly counter: SharedCounter;
  /** The counter key of each consumer's current window, so the hot path does not build a string per request. */
  private readonly keyOf = new Map<number, { windowStart: number; key: string }>();

  constructor(
    @Inject(REDIS) redis: Redis,
    private readonly keys: RedisKeys,
  ) {
    this.counter = new SharedCounter(redis);
  }

  /** Synchronous on the common path, so a request far from its limit waits on nothing. */
  hit(consumerId: number, limit: number, now = Date.now()): RateDecision | Promise<RateDecision> {
    const window = rateWindowAt(now);
    const windowStart = window.start.getTime();
    const windowEnd = window.end.getTime();
    let cached = this.keyOf.get(consumerId);
    if (cached?.windowStart !== windowStart) {
      cached = { windowStart, key: this.keys.key('rate', consumerId, windowStart) };
      this.keyOf.set(consumerId, cached);
    }
    const result = this.counter.hit(cached.key, limit, windowEnd + 1_000);
    if (result instanceof Promise) return result.then(({ allowed, count }) => ({ allowed, count, windowEnd }));
    return { allowed: result.allowed, count: result.count, windowEnd };
  }

  async onApplicationShutdown(): Promise<void> {
    await this.counter.close();
  }
}
