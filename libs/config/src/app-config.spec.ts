import { describe, expect, it } from '@jest/globals';
import { ConfigError, loadConfig } from './app-config.js';

/** The message loadConfig refuses `env` with. */
function refusal(env: Record<string, string>): string {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error('accepted');
}

describe('JWT_SECRET', () => {
  it('may be left unset outside production: the service then generates its own', () => {
    expect(loadConfig({}).JWT_SECRET).toBeUndefined();
    expect(loadConfig({ JWT_SECRET: '', NODE_ENV: 'development' }).JWT_SECRET).toBeUndefined();
  });

  it('is required with NODE_ENV=production', () => {
    expect(refusal({ NODE_ENV: 'production' })).toBe(
      'Invalid settings:\n  JWT_SECRET=undefined: JWT_SECRET is required when NODE_ENV=production (a secret of your own, the same ' +
        'for every process of the deployment); generate one with `openssl rand -base64 48`',
    );
    expect(loadConfig({ NODE_ENV: 'production', JWT_SECRET: 'p'.repeat(32) }).JWT_SECRET).toBe('p'.repeat(32));
  });

  it('needs 32 bytes of UTF-8, not 32 characters', () => {
    expect(loadConfig({ JWT_SECRET: 'é'.repeat(16) }).JWT_SECRET).toBe('é'.repeat(16));
    expect(refusal({ JWT_SECRET: 'é'.repeat(15) + 'e' })).toBe(
      'Invalid settings:\n  JWT_SECRET=(hidden): JWT_SECRET must be at least 32 bytes; generate one with `openssl rand -base64 48`',
    );
  });
});

describe('a config error', () => {
  it('never shows a secret, and still names every bad setting', () => {
    const message = refusal({ JWT_SECRET: 'short-secret-value', PORT: 'eighty' });
    expect(message).toContain('\n  JWT_SECRET=(hidden): JWT_SECRET must be at least 32 bytes');
    expect(message).toContain('\n  PORT="eighty": ');
    expect(message).not.toContain('short-secret');
  });

  it('shows a URL setting with its password masked', () => {
    const message = refusal({ EXPORT_STORE: 's3', S3_ENDPOINT: 'ftp://minio:hunter2-password@127.0.0.1:9000' });
    expect(message).toContain('S3_ENDPOINT="ftp://minio:***@127.0.0.1:9000/": S3_ENDPOINT must be a URL address');
    expect(message).not.toContain('hunter2');
  });
});

describe('EXPORT_POOL_SIZE', () => {
  it('is 2 connections unless set, and 1 to 20', () => {
    expect(loadConfig({}).EXPORT_POOL_SIZE).toBe(2);
    expect(loadConfig({ EXPORT_POOL_SIZE: '5' }).EXPORT_POOL_SIZE).toBe(5);
    expect(refusal({ EXPORT_POOL_SIZE: '0' })).toBe('Invalid settings:\n  EXPORT_POOL_SIZE="0": EXPORT_POOL_SIZE must not be less than 1');
    expect(refusal({ EXPORT_POOL_SIZE: '21' })).toBe(
      'Invalid settings:\n  EXPORT_POOL_SIZE="21": EXPORT_POOL_SIZE must not be greater than 20',
    );
  });
});

describe('the limits of the api sessions and of a shutdown', () => {
  it('have defaults, and take whole milliseconds', () => {
    expect(loadConfig({})).toMatchObject({
      API_STATEMENT_TIMEOUT_MS: 30_000,
      API_IDLE_IN_TRANSACTION_TIMEOUT_MS: 10_000,
      API_POOL_WAIT_MS: 5_000,
      SHUTDOWN_TIMEOUT_MS: 25_000,
    });
    expect(loadConfig({ API_STATEMENT_TIMEOUT_MS: '5000', SHUTDOWN_TIMEOUT_MS: '3000' })).toMatchObject({
      API_STATEMENT_TIMEOUT_MS: 5_000,
      SHUTDOWN_TIMEOUT_MS: 3_000,
    });
  });

  it('refuse a value that is no limit: 0, below the least, or not a number', () => {
    expect(() => loadConfig({ API_STATEMENT_TIMEOUT_MS: '0', API_POOL_WAIT_MS: 'soon', SHUTDOWN_TIMEOUT_MS: '10' })).toThrow(
      /API_STATEMENT_TIMEOUT_MS="0": API_STATEMENT_TIMEOUT_MS must not be less than 100[\s\S]*API_POOL_WAIT_MS="soon"[\s\S]*SHUTDOWN_TIMEOUT_MS="10": SHUTDOWN_TIMEOUT_MS must not be less than 1000/,
    );
  });
});
