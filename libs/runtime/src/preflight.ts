import { Redis } from 'ioredis';
import pg from 'pg';
import { AppConfig } from '#config';

export class PreflightError extends Error {}

const HOW_TO_START = 'Start it with `docker compose up -d` (from the project folder), or point the setting at a running server.';

function redact(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return url;
  }
}

/**
 * Checks that Postgres and Redis answer before anything else starts, so a new user learns which
 * server is missing, at which address, and how to start it, instead of reading a stack trace.
 * Creates the database named in DATABASE_URL when the server is up but the database is not.
 */
export async function preflight(config: AppConfig): Promise<void> {
  await checkPostgres(config.DATABASE_URL);
  await checkRedis(config.REDIS_URL);
}

async function checkPostgres(databaseUrl: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl, connectionTimeoutMillis: 5_000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === '3D000') {
      await createDatabase(databaseUrl);
      return;
    }
    throw new PreflightError(
      `Cannot reach Postgres at ${redact(databaseUrl)} (DATABASE_URL): ${(error as Error).message}. ${HOW_TO_START}`,
    );
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function createDatabase(databaseUrl: string): Promise<void> {
  const url = new URL(databaseUrl);
  const name = decodeURIComponent(url.pathname.slice(1));
  url.pathname = '/postgres';
  const admin = new pg.Client({ connectionString: url.toString(), connectionTimeoutMillis: 5_000 });
  try {
    await admin.connect();
    await admin.query(`CREATE DATABASE "${name.replaceAll('"', '""')}"`);
  } catch (error) {
    if ((error as { code?: string }).code === '42P04') return; // created meanwhile by another process
    throw new PreflightError(
      `Postgres at ${redact(databaseUrl)} has no database "${name}" and it could not be created: ${(error as Error).message}`,
    );
  } finally {
    await admin.end().catch(() => undefined);
  }
}

async function checkRedis(redisUrl: string): Promise<void> {
  const client = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null, connectTimeout: 5_000 });
  client.on('error', () => undefined); // the failure is reported below
  try {
    await client.connect();
    await client.ping();
  } catch (error) {
    throw new PreflightError(`Cannot reach Redis at ${redact(redisUrl)} (REDIS_URL): ${(error as Error).message}. ${HOW_TO_START}`);
  } finally {
    client.disconnect();
  }
}
