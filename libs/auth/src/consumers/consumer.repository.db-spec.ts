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

  it('finds no consumer for an unknown id', async () => {
    expect(await repository.findById(dataSource, 987_654)).toBeNull();
  });
});
