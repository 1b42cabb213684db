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

/** Deletes every key under the prefix (and only those: other deployments' and test workers' keys stay). */
export async function resetRedisPrefix(redisUrl: string, prefix: string): Promise<void> {
  const redis = new Redis(redisUrl);
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
      if (keys.length) await redis.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}
