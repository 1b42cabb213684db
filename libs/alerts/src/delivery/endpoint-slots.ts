import { Inject, Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { REDIS, RedisKeys } from '#runtime';

/**
 * KEYS[1] the endpoint's slots (a sorted set: holder -> expiry ms); ARGV[1] now, ARGV[2] cap, ARGV[3]
 * holder, ARGV[4] expiry. Slots of a process that died expire on their own.
 */
const ACQUIRE_SCRIPT = `
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then return 0 end
redis.call('ZADD', KEYS[1], ARGV[4], ARGV[3])
redis.call('PEXPIREAT', KEYS[1], ARGV[4])
return 1`;

interface Scripted {
  twAcquireSlot(key: string, now: number, cap: number, holder: string, expiresAt: number): Promise<number>;
}

interface LocalGate {
  inFlight: number;
  waiters: Array<() => void>;
}

/** What a slot limits: one endpoint's requests, or one consumer's over all its endpoints. */
export type SlotScope = 'endpoint' | 'consumer';

/**
 * At most `cap` requests in flight per endpoint (and per consumer) across every dispatcher process (a
 * Redis semaphore): a slow or failing receiver holds its own slots only, so the others' deliveries keep
 * flowing. A slot lives a little longer than the longest request, in case its holder dies without
 * releasing it.
 *
 * In front of Redis, each process keeps its own count: a job for an endpoint this process already has
 * `cap` requests in flight to may wait here for one of them to finish (at most `localWaiters` such
 * waiters), instead of going back to the queue and round again; past that, it is put back (`null`).
 */
@Injectable()
export class EndpointSlots {
  private readonly local = new Map<string, LocalGate>();

  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    private readonly keys: RedisKeys,
  ) {
    redis.defineCommand('twAcquireSlot', { numberOfKeys: 1, lua: ACQUIRE_SCRIPT });
  }

  /** A holder id when a slot was free, null when the endpoint (or consumer) is at its cap. */
  async acquire(id: number, cap: number, leaseMs: number, scope: SlotScope = 'endpoint', localWaiters = cap): Promise<string | null> {
    const gateKey = `${scope}:${id}`;
    let gate = this.local.get(gateKey);
    if (!gate) this.local.set(gateKey, (gate = { inFlight: 0, waiters: [] }));
    if (gate.inFlight >= cap) {
      if (gate.waiters.length >= localWaiters) return null;
      await new Promise<void>((resolve) => gate.waiters.push(resolve));
    }
    gate.inFlight++;
    const holder = randomUUID();
    const now = Date.now();
    try {
      const got = await (this.redis as unknown as Scripted).twAcquireSlot(
        this.keys.key(`${scope}-slots`, id),
        now,
        cap,
        holder,
        now + leaseMs,
      );
      if (got === 1) return holder;
    } catch (error) {
      this.leave(gateKey, gate);
      throw error;
    }
    this.leave(gateKey, gate);
    return null;
  }

  async release(id: number, holder: string, scope: SlotScope = 'endpoint'): Promise<void> {
    const gateKey = `${scope}:${id}`;
    try {
      await this.redis.zrem(this.keys.key(`${scope}-slots`, id), holder);
    } finally {
      const gate = this.local.get(gateKey);
      if (gate) this.leave(gateKey, gate);
    }
  }

  private leave(gateKey: string, gate: LocalGate): void {
    gate.inFlight--;
    const next = gate.waiters.shift();
    if (next) next();
    else if (gate.inFlight === 0) this.local.delete(gateKey);
  }
}
