import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { UsageMeterService } from '#auth';
import { resetRedis } from '#testing';
import { ApiHarness, awaitFreshRateWindow } from '../support/api-harness.js';

const SEGMENTS = '/api/external/segments';

async function usedInPostgres(databaseUrl: string, consumerId: number): Promise<number | null> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ used: string }>('SELECT used FROM usage WHERE consumer_id = $1', [consumerId]);
    return rows.length ? Number(rows[0].used) : null;
  } finally {
    await client.end();
  }
}

function nextMonthStart(now = new Date()): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
}

describe('plan rate limits', () => {
  let api: ApiHarness;
  beforeAll(async () => {
    api = await ApiHarness.start();
  });
  afterAll(() => api.close());

  it('counts down X-RateLimit-* headers and answers the 11th request of a Free minute with 429', async () => {
    await awaitFreshRateWindow();
    const { consumerId, token } = await api.createConsumer({ name: 'free-user', plan: 'free' });
    const resetAt = String((Math.floor(Date.now() / 60_000) + 1) * 60);

    for (let i = 1; i <= 10; i++) {
      const res = await api.get(SEGMENTS, token);
      expect(res.status).toBe(200);
      expect([res.headers['x-ratelimit-limit'], res.headers['x-ratelimit-remaining'], res.headers['x-ratelimit-reset']]).toEqual([
        '10',
        String(10 - i),
        resetAt,
      ]);
    }

    const refused = await api.get(SEGMENTS, token);
    expect(refused.status).toBe(429);
    const retryAfter = Number(refused.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(refused.body).toEqual({
      error: 'rate_limit_exceeded',
      message: `Rate limit of 10 requests per minute exceeded; retry after ${retryAfter} s or upgrade your plan.`,
      retry_after: retryAfter,
    });
    expect(refused.headers['x-ratelimit-remaining']).toBe('0');
    expect(refused.headers['x-request-id']).toBeDefined();

    // The refused request spent no usage token.
    const meter = api.app.get(UsageMeterService);
    await meter.flush();
    expect(await usedInPostgres(api.config.DATABASE_URL, consumerId)).toBe(10);
  });

  it('shares one budget across api processes through Redis', async () => {
    await awaitFreshRateWindow();
    const second = await ApiHarness.start({ reset: false });
    try {
      const { token } = await api.createConsumer({ name: 'two-process-user', plan: 'free' });
      const statuses: number[] = [];
      for (let i = 0; i < 12; i++) statuses.push((await (i % 2 ? second : api).get(SEGMENTS, token)).status);
      expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 429, 429]);
    } finally {
      await second.close();
    }
  });
});

describe('usage tokens', () => {
  let api: ApiHarness;
  beforeAll(async () => {
    api = await ApiHarness.start();
  });
  afterAll(() => api.close());

  it('reports the plan, period, tokens used and reset time', async () => {
    const { consumerId, token } = await api.createConsumer({ name: 'reader', plan: 'tier1' });
    await api.get(SEGMENTS, token);
    await api.get(SEGMENTS, token);
    const res = await api.get('/api/external/usage', token);
    const now = new Date();
    const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)).toISOString();
    const end = nextMonthStart(now).toISOString();
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      status: 'success',
      data: { consumerId, plan: 'tier1', period: { start, end }, used: 3, limit: 50000, remaining: 49997, resetsAt: end },
    });
  });

  it('answers 429 usage_limit_exceeded once the period is spent, records the count in Postgres, and keeps it after Redis loses it', async () => {
    const { consumerId, token } = await api.createConsumer({ name: 'small-quota', plan: 'tier1', usageLimit: 5 });
    for (let i = 0; i < 5; i++) expect((await api.get(SEGMENTS, token)).status).toBe(200);

    const refused = await api.get(SEGMENTS, token);
    expect(refused.status).toBe(429);
    const reset = nextMonthStart();
    const retryAfter = Number(refused.headers['retry-after']);
    expect(Math.abs(retryAfter - Math.ceil((reset.getTime() - Date.now()) / 1000))).toBeLessThanOrEqual(2);
    expect(refused.body).toEqual({
      error: 'usage_limit_exceeded',
      message: `All 5 usage tokens of this month are spent; they reset at ${reset.toISOString()}.`,
      retry_after: retryAfter,
    });

    await api.close(); // persists what was spent
    expect(await usedInPostgres(api.config.DATABASE_URL, consumerId)).toBe(5);

    // Redis loses every counter; a new api process re-seeds from Postgres and still refuses.
    await resetRedis(api.config.REDIS_URL, api.config.REDIS_PREFIX);
    api = await ApiHarness.start({ reset: false });
    const after = await api.get(SEGMENTS, token);
    expect(after.status).toBe(429);
    expect(after.body.error).toBe('usage_limit_exceeded');
    await api.app.get(UsageMeterService).flush();
    expect(await usedInPostgres(api.config.DATABASE_URL, consumerId)).toBe(5);
  });
});
