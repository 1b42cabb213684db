import { Logger } from '@nestjs/common';
import { Redis } from 'ioredis';

export interface CounterResult {
  allowed: boolean;
  /** This process's best knowledge of the window's global count, this request included. */
  count: number;
}

/**
 * KEYS[1] counter; ARGV[1] admitted hits not yet written; ARGV[2] limit (0: only write them);
 * ARGV[3] expiry as epoch ms. Returns {count, admitted}. A refused hit is not counted.
 */
const SYNC_SCRIPT = `
local total = redis.call('INCRBY', KEYS[1], ARGV[1])
redis.call('PEXPIREAT', KEYS[1], ARGV[3])
local limit = tonumber(ARGV[2])
if limit > 0 and total < limit then
  return {redis.call('INCR', KEYS[1]), 1}
end
return {total, 0}`;

/** Raises a counter to at least ARGV[1] (re-seeding from the durable record after Redis lost it). */
const SEED_SCRIPT = `
local current = tonumber(redis.call('GET', KEYS[1]) or '0')
local seed = tonumber(ARGV[1])
if current < seed then
  redis.call('SET', KEYS[1], seed, 'PXAT', ARGV[2])
  return seed
end
return current`;

const FLUSH_EVERY_MS = 200;
const PROCESSES_KEPT_EXACT = 8;

interface Entry {
  key: string;
  expiresAt: number;
  /** Global count as Redis last reported it. */
  synced: number;
  /** Hits admitted here and not yet added in Redis. */
  unsynced: number;
  known: boolean;
}

/**
 * A counter shared by every api process through Redis, without a Redis round trip per request.
 *
 * Far from the limit a hit is admitted from memory and written behind, in batches every
 * FLUSH_EVERY_MS, up to a local allowance (see `localAllowance`); past it, or close to the limit,
 * the hit is decided by Redis atomically, which also writes the pending hits and refreshes the
 * global count. The limit is exact for one process and for up to PROCESSES_KEPT_EXACT processes.
 *
 * If Redis is unreachable, hits are decided from local counts at once and written once it is back.
 */
export class SharedCounter {
  private readonly logger = new Logger(SharedCounter.name);
  private readonly entries = new Map<string, Entry>();
  private timer?: NodeJS.Timeout;
  private flushing?: Promise<void>;

  /** Set once the client has been connected: before that, commands wait in its queue for the first connection. */
  private connectedBefore: boolean;

  constructor(private readonly redis: Redis) {
    this.connectedBefore = redis.status === 'ready';
    redis.once('ready', () => (this.connectedBefore = true));
    redis.defineCommand('twCounterSync', { numberOfKeys: 1, lua: SYNC_SCRIPT });
    redis.defineCommand('twCounterSeed', { numberOfKeys: 1, lua: SEED_SCRIPT });
  }

  /**
   * How many hits one process may admit from memory before asking Redis: an eighth of what is
   * left above the sync margin. Processes each hold at most that much unwritten, so up to
   * PROCESSES_KEPT_EXACT of them together can never admit past the limit; the allowance shrinks as
   * the count nears the limit and reaches zero within the margin, where every hit goes to Redis.
   */
  static localAllowance(limit: number, synced: number): number {
    const margin = Math.max(20, Math.ceil(limit * 0.02));
    return (limit - synced - margin) / PROCESSES_KEPT_EXACT;
  }

  hit(key: string, limit: number, expiresAt: number): CounterResult | Promise<CounterResult> {
    let entry = this.entries.get(key);
    if (!entry) {
      entry = { key, expiresAt, synced: 0, unsynced: 0, known: false };
      this.entries.set(key, entry);
    }
    if (entry.known && entry.unsynced + 1 <= SharedCounter.localAllowance(limit, entry.synced)) {
      entry.unsynced += 1;
      this.scheduleFlush();
      return { allowed: true, count: entry.synced + entry.unsynced };
    }
    return this.decideInRedis(entry, limit);
  }

  /** The global count as far as this process knows it, after writing its own pending hits. */
  async read(key: string): Promise<number> {
    const entry = this.entries.get(key);
    const local = () => (entry ? entry.synced + entry.unsynced : 0);
    if (this.redisAway()) return local();
    if (entry?.unsynced) await this.flush();
    const value = await this.redis.get(key).catch(() => null);
    return Math.max(Number(value ?? 0), local());
  }

  /**
   * Raises the counter to at least `value` (the durable count). The local entry takes it whether or not Redis
   * does, so with Redis away this process still decides from the durable count (the caller seeds again once
   * Redis is back).
   */
  async seed(key: string, value: number, expiresAt: number): Promise<void> {
    let entry = this.entries.get(key);
    if (!entry) {
      entry = { key, expiresAt, synced: 0, unsynced: 0, known: false };
      this.entries.set(key, entry);
    }
    entry.synced = Math.max(entry.synced, value);
    if (this.redisAway()) return;
    try {
      const current = Number(await (this.redis as unknown as Scripted).twCounterSeed(key, value, expiresAt));
      entry.synced = Math.max(entry.synced, current);
    } catch (error) {
      this.logger.warn(`Redis unavailable, ${key} seeded locally: ${(error as Error).message}`);
    }
  }

  async close(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.flush();
  }

  private decideInRedis(entry: Entry, limit: number): CounterResult | Promise<CounterResult> {
    // A Redis that is away is not waited for (the client would hold the command for seconds of reconnecting):
    // the hit is decided here at once, from what this process knows (docs/decisions.md, "Servers away").
    if (this.redisAway()) return this.decideLocally(entry, limit);
    const pending = entry.unsynced;
    entry.unsynced = 0;
    return (this.redis as unknown as Scripted).twCounterSync(entry.key, pending, limit, entry.expiresAt).then(
      ([count, admitted]) => {
        entry.synced = count;
        entry.known = true;
        return { allowed: admitted === 1, count };
      },
      (error: Error) => {
        entry.unsynced += pending;
        this.logger.warn(`Redis unavailable, deciding ${entry.key} locally: ${error.message}`);
        return this.decideLocally(entry, limit);
      },
    );
  }

  /** Redis was reached before and is not connected now (it stopped, restarts, or the network is down). */
  private redisAway(): boolean {
    return this.connectedBefore && this.redis.status !== 'ready';
  }

  private decideLocally(entry: Entry, limit: number): CounterResult {
    const estimate = entry.synced + entry.unsynced;
    if (estimate >= limit) return { allowed: false, count: estimate };
    entry.unsynced += 1;
    this.scheduleFlush();
    return { allowed: true, count: estimate + 1 };
  }

  private scheduleFlush(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.flush();
    }, FLUSH_EVERY_MS);
    this.timer.unref();
  }

  /** Writes every pending hit; concurrent callers share one pass. */
  flush(): Promise<void> {
    this.flushing ??= this.flushOnce().finally(() => (this.flushing = undefined));
    return this.flushing;
  }

  private async flushOnce(): Promise<void> {
    // Kept for when Redis is back (its 'ready'), rather than queued in the client for seconds of reconnecting.
    if (this.redisAway()) {
      this.scheduleFlush();
      return;
    }
    const now = Date.now();
    const writes: Promise<void>[] = [];
    for (const entry of this.entries.values()) {
      if (entry.unsynced === 0) {
        if (entry.expiresAt < now) this.entries.delete(entry.key);
        continue;
      }
      const pending = entry.unsynced;
      entry.unsynced = 0;
      writes.push(
        (this.redis as unknown as Scripted).twCounterSync(entry.key, pending, 0, entry.expiresAt).then(
          ([count]) => {
            entry.synced = count;
            entry.known = true;
          },
          (error: Error) => {
            entry.unsynced += pending;
            this.logger.warn(`could not write ${pending} hits of ${entry.key}: ${error.message}`);
            this.scheduleFlush();
          },
        ),
      );
    }
    await Promise.all(writes);
  }
}

interface Scripted {
  twCounterSync(key: string, pending: number, limit: number, expiresAt: number): Promise<[number, number]>;
  twCounterSeed(key: string, value: number, expiresAt: number): Promise<number>;
}
