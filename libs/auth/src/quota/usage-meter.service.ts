import { Inject, Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { Redis } from 'ioredis';
import { DataSource } from 'typeorm';
import { REDIS, RedisKeys } from '#runtime';
import { ConsumerLimits } from '../consumers/consumer-directory.service.js';
import { usagePeriodAt, UsagePeriod } from '../consumers/plans.js';
import { SharedCounter } from './shared-counter.js';
import { UsageIncrement, UsageRepository } from './usage.repository.js';

const PERSIST_EVERY_MS = 1_000;
/** Counter keys outlive their period by a day so a late reader still sees the final count. */
const KEY_GRACE_MS = 86_400_000;

export interface UsageReport {
  consumerId: number;
  plan: string;
  period: { start: string; end: string };
  used: number;
  limit: number;
  remaining: number;
  resetsAt: string;
}

export interface SpendResult {
  allowed: boolean;
  period: UsagePeriod;
}

/**
 * Usage tokens: enforced through a Redis counter shared by all processes, and recorded durably in
 * Postgres (`usage`), which also re-seeds the counter when Redis has lost it.
 */
@Injectable()
export class UsageMeterService implements OnApplicationShutdown {
  private readonly logger = new Logger(UsageMeterService.name);
  private readonly counter: SharedCounter;
  private readonly seeded = new Set<string>();
  private pending = new Map<string, UsageIncrement>();
  private readonly timer: NodeJS.Timeout;
  /** The counter key of each consumer's current period, so the hot path does not build a string per request. */
  private readonly keyOf = new Map<number, { period: UsagePeriod; key: string }>();

  constructor(
    @Inject(REDIS) redis: Redis,
    private readonly keys: RedisKeys,
    private readonly dataSource: DataSource,
    private readonly usage: UsageRepository,
  ) {
    this.counter = new SharedCounter(redis);
    // A Redis that comes back may have lost its counters: re-seed each from Postgres on next use.
    redis.on('ready', () => this.seeded.clear());
    this.timer = setInterval(() => void this.persist(), PERSIST_EVERY_MS);
    this.timer.unref();
  }

  private key(consumerId: number, period: UsagePeriod): string {
    let cached = this.keyOf.get(consumerId);
    if (cached?.period !== period) {
      cached = { period, key: this.keys.key('usage', consumerId, period.start.getTime()) };
      this.keyOf.set(consumerId, cached);
    }
    return cached.key;
  }

  /** Spends one usage token if the period has one left. Synchronous on the common path. */
  spend(limits: ConsumerLimits, now = Date.now()): SpendResult | Promise<SpendResult> {
    const period = usagePeriodAt(limits.plan.usagePeriod, now);
    const key = this.key(limits.consumerId, period);
    if (!this.seeded.has(key)) return this.seedThenSpend(limits, period, key);
    const result = this.counter.hit(key, limits.usageLimit, period.end.getTime() + KEY_GRACE_MS);
    if (result instanceof Promise) return result.then((r) => this.record(limits, period, r.allowed));
    return this.record(limits, period, result.allowed);
  }

  /**
   * The first request of a period (or after Redis came back) starts the counter from Postgres. With Redis away
   * the durable count still seeds this process's own count, so the request is decided locally, never failed;
   * Redis's 'ready' clears `seeded`, and the next request seeds Redis too.
   */
  private async seedThenSpend(limits: ConsumerLimits, period: UsagePeriod, key: string): Promise<SpendResult> {
    const durable = await this.usage.used(this.dataSource, limits.consumerId, period.start);
    await this.counter.seed(key, durable + this.pendingFor(limits.consumerId, period), period.end.getTime() + KEY_GRACE_MS);
    this.seeded.add(key);
    return this.spend(limits);
  }

  private record(limits: ConsumerLimits, period: UsagePeriod, allowed: boolean): SpendResult {
    if (allowed) {
      const id = this.key(limits.consumerId, period);
      const entry = this.pending.get(id);
      if (entry) entry.count += 1;
      else this.pending.set(id, { consumerId: limits.consumerId, periodStart: period.start, count: 1 });
    }
    return { allowed, period };
  }

  private pendingFor(consumerId: number, period: UsagePeriod): number {
    return this.pending.get(this.key(consumerId, period))?.count ?? 0;
  }

  async report(limits: ConsumerLimits, now = Date.now()): Promise<UsageReport> {
    const period = usagePeriodAt(limits.plan.usagePeriod, now);
    const durable = await this.usage.used(this.dataSource, limits.consumerId, period.start);
    const live = await this.counter.read(this.key(limits.consumerId, period));
    const used = Math.max(durable + this.pendingFor(limits.consumerId, period), live);
    return {
      consumerId: limits.consumerId,
      plan: limits.plan.id,
      period: { start: period.start.toISOString(), end: period.end.toISOString() },
      used,
      limit: limits.usageLimit,
      remaining: Math.max(0, limits.usageLimit - used),
      resetsAt: period.end.toISOString(),
    };
  }

  /** Writes the spent tokens to Postgres; on failure they stay pending for the next pass. */
  async persist(): Promise<void> {
    if (this.pending.size === 0) return;
    const batch = this.pending;
    this.pending = new Map();
    try {
      await this.usage.add(this.dataSource, [...batch.values()]);
    } catch (error) {
      for (const [id, inc] of batch) {
        const entry = this.pending.get(id);
        if (entry) entry.count += inc.count;
        else this.pending.set(id, inc);
      }
      this.logger.warn(`usage not yet persisted (${batch.size} consumers): ${(error as Error).message}`);
    }
  }

  /** Writes everything spent so far to Redis and Postgres (shutdown, and readers that need it now). */
  async flush(): Promise<void> {
    await this.counter.flush();
    await this.persist();
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.counter.close();
    await this.persist();
  }
}
