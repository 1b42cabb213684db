import { Inject, Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { Redis } from 'ioredis';
import { REDIS, RedisKeys } from '#runtime';

/** A connection's lease in Redis; renewed well before it lapses, so only a dead process's connections lapse. */
const LEASE_MS = 90_000;
const RENEW_MS = 30_000;

// Drops lapsed leases, then adds this one only under the cap: one script, so two processes cannot both take the last place.
const ADMIT = `
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[3]) then return 0 end
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[4])
redis.call('PEXPIRE', KEYS[1], ARGV[5])
return 1`;

/**
 * The websocket connections each consumer holds over every api process, for the plan's connection cap:
 * a sorted set of leases per consumer, renewed by the process holding them.
 */
@Injectable()
export class StreamConnectionsRegistry implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger(StreamConnectionsRegistry.name);
  private readonly held = new Map<string, number>();
  private timer?: NodeJS.Timeout;

  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    private readonly keys: RedisKeys,
  ) {}

  onModuleInit(): void {
    this.timer = setInterval(() => void this.renew().catch((e: Error) => this.logger.warn(`connection leases: ${e.message}`)), RENEW_MS);
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    clearInterval(this.timer);
  }

  /** Takes a place for the connection unless the consumer already holds `cap`. */
  async admit(consumerId: number, connectionId: string, cap: number): Promise<boolean> {
    const now = Date.now();
    const admitted = await this.redis.eval(ADMIT, 1, this.key(consumerId), now, now + LEASE_MS, cap, connectionId, LEASE_MS);
    if (admitted === 1) this.held.set(connectionId, consumerId);
    return admitted === 1;
  }

  async release(connectionId: string): Promise<void> {
    const consumerId = this.held.get(connectionId);
    if (consumerId === undefined) return;
    this.held.delete(connectionId);
    await this.redis.zrem(this.key(consumerId), connectionId);
  }

  private async renew(): Promise<void> {
    if (this.held.size === 0) return;
    const until = Date.now() + LEASE_MS;
    const pipeline = this.redis.pipeline();
    for (const [connectionId, consumerId] of this.held) {
      pipeline.zadd(this.key(consumerId), 'XX', until, connectionId).pexpire(this.key(consumerId), LEASE_MS);
    }
    await pipeline.exec();
  }

  private key(consumerId: number): string {
    return this.keys.key('ws-connections', consumerId);
  }
}
