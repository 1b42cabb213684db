import type { DataSource, QueryRunner } from 'typeorm';
import type { ApiHarness } from './api-harness.js';

/**
 * Holds the build locks of `names` (`<kind>/<coin key>`) on a session of the test's, as another api process
 * building those exports would: the api's builds of them wait on Postgres until `release()`.
 */
export async function holdExportBuildLocks(dataSource: DataSource, names: readonly string[]): Promise<{ release(): Promise<void> }> {
  const session: QueryRunner = dataSource.createQueryRunner();
  for (const name of names) await session.query(`SELECT pg_advisory_lock(hashtextextended($1, 0))`, [`tidewatch export ${name}`]);
  return {
    async release() {
      await session.query('SELECT pg_advisory_unlock_all()');
      await session.release();
    },
  };
}

/** Sessions of this database waiting for an advisory lock right now. */
export async function advisoryLockWaiters(dataSource: DataSource): Promise<number> {
  const [row]: Array<{ n: number }> = await dataSource.query(
    `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND wait_event = 'advisory'`,
  );
  return row!.n;
}

/** Polls `condition` until it holds; `limitMs` only catches a hang. */
export async function eventually(condition: () => Promise<boolean>, limitMs = 30_000): Promise<void> {
  const deadline = Date.now() + limitMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`not reached within ${limitMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Export files the api process built, as its /metrics counts them (every kind). */
export async function exportBuilds(api: ApiHarness): Promise<number> {
  const text: string = (await api.http.get('/metrics')).text;
  return text
    .split('\n')
    .filter((line) => line.startsWith('tidewatch_export_builds_total{'))
    .reduce((sum, line) => sum + Number(line.split(' ').at(-1)), 0);
}

/** `promise`, or a failure naming `what` once `limitMs` has passed (a limit that catches a hang, not a measurement). */
export async function within<T>(promise: Promise<T>, what: string, limitMs = 20_000): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>(
    (_, reject) => (timer = setTimeout(() => reject(new Error(`${what}: no answer within ${limitMs} ms`)), limitMs)),
  );
  try {
    return await Promise.race([promise, limit]);
  } finally {
    clearTimeout(timer);
  }
}
