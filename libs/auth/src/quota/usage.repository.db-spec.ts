import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from '#database';
import { resetDatabase, useTestEnvironment } from '#testing';
import { UsageRepository } from './usage.repository.js';

const repository = new UsageRepository();
let dataSource: DataSource;
let alice: number;
let bob: number;

const JUNE = new Date('2026-06-01T00:00:00.000Z');
const JULY = new Date('2026-07-01T00:00:00.000Z');

beforeAll(async () => {
  const config = useTestEnvironment();
  await resetDatabase(config.DATABASE_URL);
  dataSource = await new DataSource(dataSourceOptions(config.DATABASE_URL)).initialize();
  [{ id: alice }, { id: bob }] = await dataSource.query(
    `INSERT INTO consumers (name, plan) VALUES ('alice', 'tier1'), ('bob', 'free') RETURNING id`,
  );
});
afterAll(async () => {
  await dataSource?.destroy();
});

describe('UsageRepository', () => {
  it('reads 0 for a period nothing was spent in', async () => {
    expect(await repository.used(dataSource, alice, JUNE)).toBe(0);
  });

  it('creates a row per consumer and period on first use, and sums what is added later', async () => {
    await repository.add(dataSource, [
      { consumerId: alice, periodStart: JUNE, count: 3 },
      { consumerId: bob, periodStart: JUNE, count: 1 },
    ]);
    await repository.add(dataSource, [
      { consumerId: alice, periodStart: JUNE, count: 4 },
      { consumerId: alice, periodStart: JULY, count: 2 },
    ]);
    await repository.add(dataSource, []);
    expect(await repository.used(dataSource, alice, JUNE)).toBe(7);
    expect(await repository.used(dataSource, alice, JULY)).toBe(2);
    expect(await repository.used(dataSource, bob, JUNE)).toBe(1);
    expect(await dataSource.query(`SELECT consumer_id, period_start, used FROM usage ORDER BY consumer_id, period_start`)).toEqual([
      { consumer_id: alice, period_start: JUNE, used: '7' },
      { consumer_id: alice, period_start: JULY, used: '2' },
      { consumer_id: bob, period_start: JUNE, used: '1' },
    ]);
  });

  it('returns counts beyond 2^32 as numbers', async () => {
    await dataSource.transaction((q) => repository.add(q, [{ consumerId: bob, periodStart: JULY, count: 3_000_000_000 }]));
    await repository.add(dataSource, [{ consumerId: bob, periodStart: JULY, count: 3_000_000_000 }]);
    expect(await repository.used(dataSource, bob, JULY)).toBe(6_000_000_000);
  });
});
