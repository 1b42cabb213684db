import { Inject, Injectable } from '@nestjs/common';
import { Redis } from 'ioredis';
import { DataSource } from 'typeorm';
import type { SqlRunner } from '#database';
import { REDIS, RedisKeys } from '#runtime';
import { ConsumerDirectoryService } from '../consumers/consumer-directory.service.js';
import { usagePeriodAt } from '../consumers/plans.js';
import { UsageRepository } from './usage.repository.js';

/** Counter keys outlive their period by a day, as the request meter's do (same keys). */
const KEY_GRACE_MS = 86_400_000;
/** A reservation of a process that died fades after this long; a live one is settled or released within seconds. */
const RESERVATION_TTL_MS = 60_000;

/**
 * KEYS[1] the consumer's usage counter for the period (the request meter's key), KEYS[2] its
 * reservations; ARGV[1] limit, ARGV[2] reservation ttl. Returns -1 when the counter must be seeded
 * from Postgres first, 0 when the period has no token left, 1 when one is reserved.
 */
const RESERVE_SCRIPT = `
local used = redis.call('GET', KEYS[1])
if not used then return -1 end
local reserved = tonumber(redis.call('GET', KEYS[2]) or '0')
if tonumber(used) + reserved + 1 > tonumber(ARGV[1]) then return 0 end
redis.call('INCR', KEYS[2])
redis.call('PEXPIRE', KEYS[2], ARGV[2])
return 1`;

/**
 * Takes ARGV[1] tokens off the reservations; with ARGV[2] = 1 they become spent on the counter (a
 * missing counter is left alone: it is re-seeded from Postgres, which holds the charge, on next use).
 */
const SETTLE_SCRIPT = `
if ARGV[2] == '1' and redis.call('EXISTS', KEYS[1]) == 1 then redis.call('INCRBY', KEYS[1], ARGV[1]) end
local left = tonumber(redis.call('GET', KEYS[2]) or '0') - tonumber(ARGV[1])
if left > 0 then redis.call('SET', KEYS[2], left, 'KEEPTTL') else redis.call('DEL', KEYS[2]) end
return left`;

interface Scripted {
  twReserveUsage(counter: string, reserved: string, limit: number, ttlMs: number): Promise<number>;
  twSettleUsage(counter: string, reserved: string, count: number, spend: 0 | 1): Promise<number>;
}

export type UsageReservation = { reserved: true; periodStart: Date } | { reserved: false; resetsAt: Date };

/** Spent tokens to write durably: one delivery each, counted in the plan period of its delivery time. */
export interface DeliveryCharge {
  consumerId: number;
  deliveredAtMs: number;
}

/**
 * Usage tokens of webhook deliveries: one per successful delivery, exactly once.
 *
 * Before an attempt the dispatcher reserves a token against the same Redis counter the request meter
 * uses (spent + reserved must stay within the plan's limit, so concurrent attempts never overshoot);
 * a failed attempt releases it. A success is charged durably by the delivered row itself (its
 * `usage_charged` flag and the `usage` row move in one transaction, see `charge`), then settled in
 * Redis: the reservation becomes spent.
 */
@Injectable()
export class DeliveryUsageService {
  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    private readonly keys: RedisKeys,
    private readonly dataSource: DataSource,
    private readonly usage: UsageRepository,
    private readonly directory: ConsumerDirectoryService,
  ) {
    redis.defineCommand('twReserveUsage', { numberOfKeys: 2, lua: RESERVE_SCRIPT });
    redis.defineCommand('twSettleUsage', { numberOfKeys: 2, lua: SETTLE_SCRIPT });
  }

  private async limitsOf(consumerId: number) {
    const limits = await this.directory.lookup(consumerId);
    if (!limits) throw new Error(`consumer ${consumerId} does not exist`);
    return limits;
  }

  private counterKey(consumerId: number, periodStart: Date): string {
    return this.keys.key('usage', consumerId, periodStart.getTime());
  }

  private reservedKey(consumerId: number, periodStart: Date): string {
    return this.keys.key('usage-reserved', consumerId, periodStart.getTime());
  }

  async reserve(consumerId: number, now = Date.now()): Promise<UsageReservation> {
    const limits = await this.limitsOf(consumerId);
    const period = usagePeriodAt(limits.plan.usagePeriod, now);
    const counter = this.counterKey(consumerId, period.start);
    const reserved = this.reservedKey(consumerId, period.start);
    const scripted = this.redis as unknown as Scripted;
    let answer = await scripted.twReserveUsage(counter, reserved, limits.usageLimit, RESERVATION_TTL_MS);
    if (answer === -1) {
      const durable = await this.usage.used(this.dataSource, consumerId, period.start);
      await this.redis.set(counter, durable, 'PXAT', period.end.getTime() + KEY_GRACE_MS, 'NX');
      answer = await scripted.twReserveUsage(counter, reserved, limits.usageLimit, RESERVATION_TTL_MS);
    }
    return answer === 1 ? { reserved: true, periodStart: period.start } : { reserved: false, resetsAt: period.end };
  }

  /** Gives back a reservation whose attempt did not deliver. */
  async release(consumerId: number, periodStart: Date): Promise<void> {
    await (this.redis as unknown as Scripted).twSettleUsage(
      this.counterKey(consumerId, periodStart),
      this.reservedKey(consumerId, periodStart),
      1,
      0,
    );
  }

  /** Writes the charges in the caller's transaction (with the rows that record them as charged). */
  async charge(q: SqlRunner, charges: readonly DeliveryCharge[]): Promise<Array<{ consumerId: number; periodStart: Date; count: number }>> {
    const byPeriod = new Map<string, { consumerId: number; periodStart: Date; count: number }>();
    for (const c of charges) {
      const limits = await this.limitsOf(c.consumerId);
      const periodStart = usagePeriodAt(limits.plan.usagePeriod, c.deliveredAtMs).start;
      const key = `${c.consumerId}:${periodStart.getTime()}`;
      const entry = byPeriod.get(key);
      if (entry) entry.count += 1;
      else byPeriod.set(key, { consumerId: c.consumerId, periodStart, count: 1 });
    }
    const increments = [...byPeriod.values()];
    await this.usage.add(q, increments);
    return increments;
  }

  /** After `charge` committed: the reserved tokens become spent in Redis. */
  async settle(increments: ReadonlyArray<{ consumerId: number; periodStart: Date; count: number }>): Promise<void> {
    const scripted = this.redis as unknown as Scripted;
    for (const i of increments)
      await scripted.twSettleUsage(this.counterKey(i.consumerId, i.periodStart), this.reservedKey(i.consumerId, i.periodStart), i.count, 1);
  }
}
