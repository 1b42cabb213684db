import { afterAll, beforeAll } from '@jest/globals';
import { DataSource } from 'typeorm';
import type { CreateConsumerInput } from '#auth';
import { dataSourceOptions } from '#database';
import { ApiHarness } from './api-harness.js';

/** What a route suite works with once its beforeAll has run. */
export interface SeededApi {
  api: ApiHarness;
  /** The suite consumer's token. */
  token: string;
  /** On the api's database, for seeding and for reading what a route should answer. */
  dataSource: DataSource;
  /** GET with the suite consumer's token. */
  get(path: string): ReturnType<ApiHarness['get']>;
}

/**
 * The set-up the route suites share, registered as the calling describe's beforeAll and afterAll: the
 * production api (`env` over the test settings) on an emptied database, one consumer, and `seed` run
 * through a data source before any test. A suite split over several files calls it in each with the same
 * seed, so every file sees the data the one suite did. The fields are set when beforeAll runs: read them
 * in tests and hooks only.
 */
export function useSeededApi(
  consumer: Partial<CreateConsumerInput>,
  seed?: (dataSource: DataSource) => Promise<void>,
  env?: Record<string, string>,
): SeededApi {
  const suite = { get: (path: string) => suite.api.get(path, suite.token) } as SeededApi;
  beforeAll(async () => {
    suite.api = await ApiHarness.start({ env });
    ({ token: suite.token } = await suite.api.createConsumer(consumer));
    suite.dataSource = await new DataSource(dataSourceOptions(suite.api.config.DATABASE_URL)).initialize();
    await seed?.(suite.dataSource);
  });
  afterAll(async () => {
    await suite.dataSource?.destroy();
    await suite.api?.close();
  });
  return suite;
}
