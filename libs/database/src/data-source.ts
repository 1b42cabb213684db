import { DataSource, DataSourceOptions } from 'typeorm';
import { MIGRATIONS } from './migrations/index.js';

/** Postgres settings (`SET name = value`) every connection of a pool starts its session with. */
export type SessionSettings = Readonly<Record<string, string>>;

/**
 * The ingestor's sessions (docs/decisions.md): no JIT, whose compiling (tens to hundreds of ms once a
 * statement over a growing table crosses jit_above_cost) costs more than the statements it would speed up.
 */
export const WRITER_SESSION: SessionSettings = { jit: 'off' };

export function dataSourceOptions(databaseUrl: string, session: SessionSettings = {}): DataSourceOptions {
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
    extra: { max: 20, ...(options === '' ? {} : { options }) },
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
