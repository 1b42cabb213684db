import { Queue } from 'bullmq';
import { createHash } from 'node:crypto';
import { Redis } from 'ioredis';
import { DataSource } from 'typeorm';
import { DELIVERY_QUEUE } from '#alerts';
import { ApiHarness } from './api-harness.js';

/** A wallet address from a number. */
export const A = (n: number) => `0x${n.toString(16).padStart(40, '0')}`;
/** A delivery id (64 hex digits) for a readable label. */
export const H = (label: string) => createHash('sha256').update(label).digest('hex');

export type Consumer = { consumerId: number; token: string };

/**
 * The `/events` suites' shared set-up: an api through the production bootstrap, two consumers, the
 * delivery queue as the dispatcher would read it, and the markets the service has seen (traded ones with
 * a last price, a spot one, and `xyz:GOLD`, only held in a position).
 */
export class AlertsManagementFixture {
  private constructor(
    readonly api: ApiHarness,
    readonly alice: Consumer,
    readonly bob: Consumer,
    private readonly redis: Redis,
    readonly queue: Queue,
  ) {}

  static async start(): Promise<AlertsManagementFixture> {
    const api = await ApiHarness.start();
    const redis = new Redis(api.config.REDIS_URL, { maxRetriesPerRequest: null });
    const fixture = new AlertsManagementFixture(
      api,
      await api.createConsumer({ name: 'alice' }),
      await api.createConsumer({ name: 'bob' }),
      redis,
      new Queue(DELIVERY_QUEUE, { connection: redis, prefix: api.config.REDIS_PREFIX }),
    );
    const traded = ['BTC', 'ETH', 'xyz:TSLA', 'kPEPE', '@107', ...Array.from({ length: 100 }, (_, i) => `M${i}`)];
    await fixture.rows(
      `INSERT INTO market_prices (coin, px, time, block_number) SELECT coin, 1, now(), 1 FROM unnest($1::text[]) AS coin`,
      [traded],
    );
    await fixture.rows(
      `INSERT INTO positions (address, coin, dex, side, size, entry_price, value, unrealized_pnl, funding, leverage_type, leverage, margin_used, open_time, created_at, updated_at)
       VALUES ($1, 'xyz:GOLD', 'xyz', 'long', 1, 2000, 2000, 0, 0, 'isolated', 2, 1000, now(), now(), now())`,
      [A(77)],
    );
    return fixture;
  }

  /** Requests with `who`'s token. */
  as(who: { token: string }) {
    const { api } = this;
    return {
      get: (path: string) => api.http.get(path).set('Authorization', `Bearer ${who.token}`),
      post: (path: string, body?: object) => api.http.post(path).set('Authorization', `Bearer ${who.token}`).send(body),
      patch: (path: string, body: object) => api.http.patch(path).set('Authorization', `Bearer ${who.token}`).send(body),
      delete: (path: string) => api.http.delete(path).set('Authorization', `Bearer ${who.token}`),
    };
  }

  rows(sql: string, params: unknown[] = []) {
    return this.api.app.get(DataSource).query(sql, params);
  }

  async close(): Promise<void> {
    await this.queue.close();
    await this.redis.quit();
    await this.api.close();
  }
}
