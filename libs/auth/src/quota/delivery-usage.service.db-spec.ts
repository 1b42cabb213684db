import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Redis } from 'ioredis';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from '#database';
import { RedisKeys } from '#runtime';
import { resetDatabase, resetRedis, useTestEnvironment } from '#testing';
import { ConsumerDirectoryService } from '../consumers/consumer-directory.service.js';
import { ConsumerRepository } from '../consumers/consumer.repository.js';
import { usagePeriodAt } from '../consumers/plans.js';
import { DeliveryUsageService } from './delivery-usage.service.js';
import { UsageRepository } from './usage.repository.js';

describe('DeliveryUsageService on real Postgres and Redis', () => {
  const config = useTestEnvironment();
  let dataSource: DataSource;
  let redis: Redis;
  let service: DeliveryUsageService;
  let consumer: number;
  const keys = new RedisKeys(config.REDIS_PREFIX);
  const period = usagePeriodAt('month', Date.now());
  const counter = () => redis.get(keys.key('usage', consumer, period.start.getTime())).then(Number);
  const reserved = () => redis.get(keys.key('usage-reserved', consumer, period.start.getTime())).then(Number);

  beforeAll(async () => {
    await resetDatabase(config.DATABASE_URL);
    await resetRedis(config.REDIS_URL, config.REDIS_PREFIX);
    dataSource = await new DataSource(dataSourceOptions(config.DATABASE_URL)).initialize();
    redis = new Redis(config.REDIS_URL);
    service = new DeliveryUsageService(
      redis,
      keys,
      dataSource,
      new UsageRepository(),
      new ConsumerDirectoryService(dataSource, new ConsumerRepository()),
    );
    [{ id: consumer }] = await dataSource.query(
      `INSERT INTO consumers (name, plan, usage_limit) VALUES ('alice', 'tier1', 5) RETURNING id`,
    );
    // Three tokens already spent this period (by requests), known only to Postgres: Redis has lost its counter.
    await new UsageRepository().add(dataSource, [{ consumerId: consumer, periodStart: period.start, count: 3 }]);
  });
  afterAll(async () => {
    await dataSource?.destroy();
    await redis?.quit();
  });

  it('reserves only what the limit leaves (spent + reserved), seeding the counter from Postgres', async () => {
    const first = await service.reserve(consumer);
    const second = await service.reserve(consumer);
    const third = await service.reserve(consumer);
    expect(first).toEqual({ reserved: true, periodStart: period.start });
    expect(second).toEqual({ reserved: true, periodStart: period.start });
    expect(third).toEqual({ reserved: false, resetsAt: period.end });
    expect([await counter(), await reserved()]).toEqual([3, 2]);
  });

  it('a released reservation frees its token; a charged one becomes spent in Postgres and Redis', async () => {
    await service.release(consumer, period.start);
    expect([await counter(), await reserved()]).toEqual([3, 1]);
    const increments = await dataSource.transaction((q) => service.charge(q, [{ consumerId: consumer, deliveredAtMs: Date.now() }]));
    expect(increments).toEqual([{ consumerId: consumer, periodStart: period.start, count: 1 }]);
    await service.settle(increments);
    expect([await counter(), await reserved()]).toEqual([4, 0]);
    expect(await new UsageRepository().used(dataSource, consumer, period.start)).toBe(4);
    expect(await service.reserve(consumer)).toEqual({ reserved: true, periodStart: period.start });
    expect(await service.reserve(consumer)).toEqual({ reserved: false, resetsAt: period.end });
  });
});
