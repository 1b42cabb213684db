import { AppConfig, ConfigError, loadConfig } from '#config';
import { runMigrations } from '#database';
import { JsonLogger } from './json-logger.js';
import { preflight, PreflightError } from './preflight.js';

/**
 * What every entry point does before starting apps: validate settings, check that Postgres and
 * Redis answer, apply migrations. A problem a user can fix ends the process with a plain message
 * and a non-zero exit code.
 */
export async function prepareStartup(app: string, logTo: 1 | 2 = 1): Promise<AppConfig> {
  try {
    const config = loadConfig();
    const logger = new JsonLogger(config.LOG_LEVEL, app, logTo);
    if (config.JWT_SECRET === undefined) {
      logger.write('info', 'JWT_SECRET is not set: signing with the secret generated on first start and kept in Postgres (signing_secret)');
    }
    await preflight(config);
    const applied = await runMigrations(config.DATABASE_URL);
    if (applied.length) logger.write('info', 'migrations applied', { migrations: applied });
    return config;
  } catch (error) {
    if (error instanceof ConfigError || error instanceof PreflightError) {
      process.stderr.write(`tidewatch: ${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
}

interface Closable {
  close(): Promise<void>;
}

/**
 * Closes the apps in the order given on SIGINT/SIGTERM (api first, so no request arrives at a closing ingestor),
 * then exits 0. The stop is bounded: past `deadlineMs` (SHUTDOWN_TIMEOUT_MS), whatever still hangs (a webhook
 * request, a Postgres or Redis that does not answer), it logs the app it was waiting for and exits 1. What was
 * not finished is not lost: the work of each app recovers from Postgres at the next start (docs/decisions.md).
 */
export function closeOnSignals(apps: Record<string, Closable>, logger: JsonLogger, deadlineMs: number): void {
  let closing: string | undefined;
  const shutdown = async (signal: string) => {
    if (closing !== undefined) return;
    closing = '';
    logger.write('info', 'shutting down', { signal, deadlineMs });
    setTimeout(() => {
      logger.write('error', 'shutdown deadline passed, exiting with what is still closing', { deadlineMs, waitingFor: closing });
      process.exit(1);
    }, deadlineMs);
    for (const [name, app] of Object.entries(apps)) {
      closing = name;
      await app.close().catch((e: Error) => logger.write('error', 'close failed', { app: name, error: e.message }));
    }
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
}
