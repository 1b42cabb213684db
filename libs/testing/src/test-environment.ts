import { AppConfig, loadConfig } from '#config';

/** Server addresses for tests; TEST_DATABASE_URL names the server (its database part is replaced per worker). */
const BASE_DATABASE_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
export const TEST_JWT_SECRET = 'tidewatch-test-secret-0123456789';

export function testDatabaseName(workerId: string | number): string {
  return `${process.env.TEST_DB_PREFIX ?? 'tidewatch_test'}_${workerId}`;
}

export function testDatabaseUrl(workerId: string | number = process.env.JEST_WORKER_ID ?? '1'): string {
  const url = new URL(BASE_DATABASE_URL);
  url.pathname = `/${testDatabaseName(workerId)}`;
  return url.toString();
}

/**
 * Points this test worker at its own database and its own Redis key prefix (so parallel workers
 * never see each other's rows or counters) and returns the resulting config.
 */
export function useTestEnvironment(overrides: Record<string, string> = {}): AppConfig {
  const worker = process.env.JEST_WORKER_ID ?? '1';
  Object.assign(process.env, {
    DATABASE_URL: testDatabaseUrl(worker),
    REDIS_URL: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379',
    REDIS_PREFIX: `${process.env.TEST_DB_PREFIX ?? 'twtest'}${worker}`,
    JWT_SECRET: TEST_JWT_SECRET,
    LOG_LEVEL: 'silent',
    ...overrides,
  });
  return loadConfig();
}
