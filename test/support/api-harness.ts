import type { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import { ConsumerService, type CreateConsumerInput } from '#auth';
import { AppConfig } from '#config';
import { resetDatabase, resetRedis, useTestEnvironment } from '#testing';
import { createApiApp } from '../../apps/api/src/api.bootstrap.js';

/** The production api bootstrap on this worker's database and Redis prefix, driven through supertest. */
export class ApiHarness {
  private constructor(
    readonly app: NestExpressApplication,
    readonly config: AppConfig,
  ) {}

  /**
   * Starts an api; `reset` empties the database and the worker's Redis keys first, `beforeInit` changes the
   * app before its routes are set up (a global interceptor of the test's).
   */
  static async start(
    options: { reset?: boolean; env?: Record<string, string>; beforeInit?: (app: NestExpressApplication) => void } = {},
  ): Promise<ApiHarness> {
    const config = useTestEnvironment(options.env);
    if (options.reset ?? true) {
      await resetDatabase(config.DATABASE_URL);
      await resetRedis(config.REDIS_URL, config.REDIS_PREFIX);
    }
    const app = await createApiApp();
    options.beforeInit?.(app);
    await app.init();
    return new ApiHarness(app, config);
  }

  get http() {
    return request(this.app.getHttpServer());
  }

  get(path: string, token?: string) {
    const call = this.http.get(path);
    return token ? call.set('Authorization', `Bearer ${token}`) : call;
  }

  /**
   * The status `path` answers `token` once a revocation has reached this api: it arrives through Redis
   * pub/sub, so the caller waits for it (up to 2.5 s) rather than assume it.
   */
  async statusOnceRevoked(path: string, token: string): Promise<number> {
    let status = (await this.get(path, token)).status;
    for (let i = 0; i < 50 && status !== 401; i++) {
      await new Promise((r) => setTimeout(r, 50));
      status = (await this.get(path, token)).status;
    }
    return status;
  }

  /** A fresh consumer with its own token, as a new customer would have. */
  createConsumer(input: Partial<CreateConsumerInput> = {}): Promise<{ consumerId: number; token: string }> {
    return this.app.get(ConsumerService).create({ name: 'suite', plan: 'tier4', ...input });
  }

  close(): Promise<void> {
    return this.app.close();
  }
}

/**
 * Rate limits use fixed one-minute windows; a test that counts requests in one window first waits
 * for a new window when fewer than `minSecondsLeft` remain, so the count is not split by a reset.
 */
export async function awaitFreshRateWindow(minSecondsLeft = 15): Promise<void> {
  const msLeft = 60_000 - (Date.now() % 60_000);
  if (msLeft < minSecondsLeft * 1000) await new Promise((resolve) => setTimeout(resolve, msLeft + 50));
}
