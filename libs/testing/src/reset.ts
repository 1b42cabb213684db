import pg from 'pg';
import { runMigrations } from '#database';
import { resetRedisPrefix } from '#runtime';

export const resetRedis = resetRedisPrefix;

/** Migrates the database and empties every table but the migration record, so each suite starts clean. */
export async function resetDatabase(databaseUrl: string): Promise<void> {
  await runMigrations(databaseUrl);
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ tablename: string }>(
      `SELECT tablename FROM pg_tables WHERE schemaname = 'public' AND tablename <> 'migrations'`,
    );
    if (rows.length) await client.query(`TRUNCATE ${rows.map((r) => `"${r.tablename}"`).join(', ')} RESTART IDENTITY CASCADE`);
  } finally {
    await client.end();
  }
}
