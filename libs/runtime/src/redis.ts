import { Redis } from 'ioredis';

/** Injection token of the shared ioredis client. */
export const REDIS = Symbol('REDIS');

/**
 * One client per process for commands. Auto-pipelining sends the commands of concurrent requests in
 * one write, which keeps a Redis round trip per request cheap under load.
 */
export function createRedisClient(url: string, name: string): Redis {
  return new Redis(url, {
    connectionName: name,
    enableAutoPipelining: true,
    maxRetriesPerRequest: 3,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2_000),
  });
}

/** Builds every Redis key under the deployment's prefix, so keys are named in one place. */
export class RedisKeys {
  constructor(readonly prefix: string) {}

  key(...parts: Array<string | number>): string {
    return `${this.prefix}:${parts.join(':')}`;
  }
}
