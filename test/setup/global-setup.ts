import pg from 'pg';

// Jest loads this file outside its module mapper, so it imports nothing of the project's; the
// database names must match libs/testing's testDatabaseName().
const WORKERS = 4; // more than jest's maxWorkers, which is 2 on this machine's 2 cores
// TEST_DB_PREFIX lets two test runs share one server without dropping each other's databases.
const PREFIX = process.env.TEST_DB_PREFIX ?? 'tidewatch_test';

/** Recreates one empty database per jest worker; suites migrate and reset theirs (libs/testing). */
export default async function globalSetup(): Promise<void> {
  const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres' });
  try {
    await admin.connect();
  } catch (error) {
    throw new Error(`Tests need Postgres (TEST_DATABASE_URL, default 127.0.0.1:5432): ${(error as Error).message}`, { cause: error });
  }
  try {
    for (let worker = 1; worker <= WORKERS; worker++) {
      await admin.query(`DROP DATABASE IF EXISTS ${PREFIX}_${worker} WITH (FORCE)`);
      await admin.query(`CREATE DATABASE ${PREFIX}_${worker}`);
    }
  } finally {
    await admin.end();
  }
}
