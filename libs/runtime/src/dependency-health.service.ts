import { Inject, Injectable } from '@nestjs/common';
import { Redis } from 'ioredis';
import { DataSource } from 'typeorm';
import { REDIS } from './redis.js';

export interface DependencyHealth {
  status: 'up' | 'down';
  latencyMs: number;
  error?: string;
}

const CHECK_TIMEOUT_MS = 2_000;

async function probe(check: () => Promise<unknown>): Promise<DependencyHealth> {
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      check(),
      new Promise(
        (_, reject) => (timer = setTimeout(() => reject(new Error(`no answer within ${CHECK_TIMEOUT_MS} ms`)), CHECK_TIMEOUT_MS)),
      ),
    ]);
    return { status: 'up', latencyMs: Math.round((performance.now() - started) * 100) / 100 };
  } catch (error) {
    return { status: 'down', latencyMs: Math.round((performance.now() - started) * 100) / 100, error: (error as Error).message };
  } finally {
    clearTimeout(timer);
  }
}

/** Asks Postgres and Redis for a real answer, each bounded by a timeout. */
@Injectable()
export class DependencyHealthService {
  constructor(
    private readonly dataSource: DataSource,
    @Inject(REDIS) private readonly redis: Redis,
  ) {}

  async check(): Promise<{ healthy: boolean; postgres: DependencyHealth; redis: DependencyHealth }> {
    const [postgres, redis] = await Promise.all([probe(() => this.dataSource.query('SELECT 1')), probe(() => this.redis.ping())]);
    return { healthy: postgres.status === 'up' && redis.status === 'up', postgres, redis };
  }
}
