import { Redis } from 'ioredis';
import pg from 'pg';
import { runMigrations } from '../../database/src/index.js';

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

/** Deletes every key under the prefix (and only those: other workers' prefixes are untouched). */
export async function resetRedis(redisUrl: string, prefix: string): Promise<void> {
  const redis = new Redis(redisUrl);
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
      if (keys.length) await redis.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}
