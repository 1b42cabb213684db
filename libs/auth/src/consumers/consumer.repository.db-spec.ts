import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from '#database';
import { resetDatabase, useTestEnvironment } from '#testing';
import { ConsumerRepository } from './consumer.repository.js';

const repository = new ConsumerRepository();
let dataSource: DataSource;

beforeAll(async () => {
  const config = useTestEnvironment();
  await resetDatabase(config.DATABASE_URL);
  dataSource = await new DataSource(dataSourceOptions(config.DATABASE_URL)).initialize();
});
afterAll(async () => {
  await dataSource?.destroy();
});

describe('ConsumerRepository', () => {
  it('creates a consumer with custom limits and reads it back with numbers and a Date', async () => {
    const before = Date.now();
    // Above 2^32: usage_limit is a bigint, which node-postgres returns as text.
    const created = await repository.create(dataSource, {
      name: 'Quant Desk',
      plan: 'tier2',
      rateLimitPerMinute: 250,
      usageLimit: 5_000_000_000,
    });
    expect(created).toEqual({
      id: expect.any(Number),
      name: 'Quant Desk',
      plan: 'tier2',
      rateLimitPerMinute: 250,
      usageLimit: 5_000_000_000,
      createdAt: expect.any(Date),
    });
    expect(created.createdAt.getTime()).toBeGreaterThanOrEqual(before - 1_000);
    expect(created.createdAt.getTime()).toBeLessThanOrEqual(Date.now() + 1_000);
    expect(await repository.findById(dataSource, created.id)).toEqual(created);
  });

  it("stores limits left out as null (the plan's own), inside a transaction too", async () => {
    const created = await dataSource.transaction((q) => repository.create(q, { name: 'Free rider', plan: 'free' }));
    expect(created).toMatchObject({ name: 'Free rider', plan: 'free', rateLimitPerMinute: null, usageLimit: null });
    expect(await repository.findById(dataSource, created.id)).toEqual(created);
    expect(await dataSource.query(`SELECT rate_limit_per_minute, usage_limit FROM consumers WHERE id = $1`, [created.id])).toEqual([
      { rate_limit_per_minute: null, usage_limit: null },
    ]);
  });

  it("keeps the consumer's row locked until the transaction ends: a second lock of it waits for the first", async () => {
    const { id } = await repository.create(dataSource, { name: 'Caps', plan: 'tier1' });
    const steps: string[] = [];
    let end!: () => void;
    const ended = new Promise<void>((resolve) => (end = resolve));
    let locked!: () => void;
    const firstLocked = new Promise<void>((resolve) => (locked = resolve));
    const first = dataSource.transaction(async (q) => {
      await repository.lockForUpdate(q, id);
      steps.push('first locked');
      locked();
      await ended;
      steps.push('first ends');
    });
    await firstLocked;
    const second = dataSource.transaction(async (q) => {
      await repository.lockForUpdate(q, id);
      steps.push('second locked');
    });
    // Ended once Postgres shows the second waiting on a lock (or, were the row not locked, once it went through).
    const waiting = async () =>
      (
        await dataSource.query(
          `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`,
        )
      )[0].n as number;
    while ((await waiting()) === 0 && !steps.includes('second locked')) await new Promise((resolve) => setTimeout(resolve, 10));
    end();
    await Promise.all([first, second]);
    expect(steps).toEqual(['first locked', 'first ends', 'second locked']);
  });

  it('finds no consumer for an unknown id', async () => {
    expect(await repository.findById(dataSource, 987_654)).toBeNull();
  });
});
