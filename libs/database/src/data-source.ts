import { DataSource, DataSourceOptions } from 'typeorm';
import { MIGRATIONS } from './migrations/index.js';

/** Postgres settings (`SET name = value`) every connection of a pool starts its session with. */
export type SessionSettings = Readonly<Record<string, string>>;

/**
 * The ingestor's sessions (docs/decisions.md): no JIT, whose compiling (tens to hundreds of ms once a
 * statement over a growing table crosses jit_above_cost) costs more than the statements it would speed up.
 */
export const WRITER_SESSION: SessionSettings = { jit: 'off' };

/** What an app's pool is given beyond the server's defaults: session settings, and how long a caller waits for a connection. */
export interface PoolSettings {
  session?: SessionSettings;
  /** pg's `connectionTimeoutMillis`: the wait for a free connection or a new one; unset, a caller waits as long as it takes. */
  connectionWaitMs?: number;
}

/**
 * The api's sessions (docs/decisions.md, "Servers away"): a statement or a transaction left open cannot hold one
 * of the pool's connections for ever, and a request waits a bounded time for a connection when Postgres is
 * away or the pool is exhausted, so the api keeps answering (an error) and recovers on its own.
 */
export function apiPoolSettings(limits: {
  API_STATEMENT_TIMEOUT_MS: number;
  API_IDLE_IN_TRANSACTION_TIMEOUT_MS: number;
  API_POOL_WAIT_MS: number;
}): PoolSettings {
  return {
    session: {
      statement_timeout: String(limits.API_STATEMENT_TIMEOUT_MS),
      idle_in_transaction_session_timeout: String(limits.API_IDLE_IN_TRANSACTION_TIMEOUT_MS),
    },
    connectionWaitMs: limits.API_POOL_WAIT_MS,
  };
}

export function dataSourceOptions(databaseUrl: string, session: SessionSettings = {}, connectionWaitMs?: number): DataSourceOptions {
  const options = Object.entries(session)
    .map(([name, value]) => `-c ${name}=${value}`)
    .join(' ');
  return {
    type: 'postgres',
    url: databaseUrl,
    entities: [],
    migrations: MIGRATIONS,
    migrationsTableName: 'migrations',
    synchronize: false,
    migrationsRun: false,
    extra: {
      max: 20,
      ...(options === '' ? {} : { options }),
      ...(connectionWaitMs === undefined ? {} : { connectionTimeoutMillis: connectionWaitMs }),
    },
  };
}

/** Arbitrary constant naming the advisory lock that serialises migration runs. */
const MIGRATION_LOCK_KEY = 7_311_204_001;

/**
 * Applies every pending migration. Processes started together (api, ingestor and dispatcher scaled
 * out) queue on a Postgres advisory lock so only one of them migrates.
 */
export async function runMigrations(databaseUrl: string): Promise<string[]> {
  const dataSource = new DataSource({ ...dataSourceOptions(databaseUrl), migrationsTransactionMode: 'each' });
  await dataSource.initialize();
  const lock = dataSource.createQueryRunner();
  try {
    await lock.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    const applied = await dataSource.runMigrations();
    return applied.map((m) => m.name);
  } finally {
    await lock.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => undefined);
    await lock.release();
    await dataSource.destroy();
  }
}
