import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Module, type INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { DataSource } from 'typeorm';
import { RuntimeModule } from '#runtime';
import { resetDatabase, useTestEnvironment } from '#testing';
import { apiPoolSettings, dataSourceOptions, WRITER_SESSION } from './data-source.js';
import { DatabaseModule, DatabaseSessionModule } from './database.module.js';

// Two apps of one process, as `npm start` runs them: the ingestor's with its session settings, the api's without.
@Module({ imports: [RuntimeModule.forApp('ingestor'), DatabaseModule, DatabaseSessionModule.of(WRITER_SESSION)] })
class WriterAppModule {}
@Module({ imports: [RuntimeModule.forApp('api'), DatabaseModule, DatabaseSessionModule.forApi()] })
class ReaderAppModule {}

const config = useTestEnvironment();
let plain: DataSource;
let writer: DataSource;

beforeAll(async () => {
  await resetDatabase(config.DATABASE_URL);
  plain = await new DataSource(dataSourceOptions(config.DATABASE_URL)).initialize();
  writer = await new DataSource(dataSourceOptions(config.DATABASE_URL, WRITER_SESSION)).initialize();
});

afterAll(async () => {
  await plain?.destroy();
  await writer?.destroy();
});

describe('session settings of a pool', () => {
  it("start every connection of the ingestor's pool without JIT, and leave other pools with the server's setting", async () => {
    const [server]: Array<{ jit: string }> = await plain.query(`SELECT reset_val AS jit FROM pg_settings WHERE name = 'jit'`);
    // Two connections at once: the setting is the pool's, not one session's.
    const sessions = await Promise.all(
      [0, 1].map(() =>
        writer.transaction(
          async (q) =>
            (await q.query(`SELECT current_setting('jit') AS jit, pg_backend_pid() AS pid, pg_sleep(0.05)`))[0] as {
              jit: string;
              pid: number;
            },
        ),
      ),
    );
    expect(new Set(sessions.map((s) => s.pid)).size).toBe(2);
    expect(sessions.map((s) => s.jit)).toEqual(['off', 'off']);
    const [own]: Array<{ jit: string }> = await plain.query(`SELECT current_setting('jit') AS jit`);
    expect(own!.jit).toBe(server!.jit);
  });

  it("reach the DataSource of an app that imports DatabaseSessionModule, and only that app's", async () => {
    const apps: INestApplicationContext[] = [];
    try {
      for (const module of [WriterAppModule, ReaderAppModule])
        apps.push(await NestFactory.createApplicationContext(module, { logger: false }));
      const jit = await Promise.all(
        apps.map(
          async (app) => ((await app.get(DataSource).query(`SELECT current_setting('jit') AS jit`)) as Array<{ jit: string }>)[0]!.jit,
        ),
      );
      const [server]: Array<{ jit: string }> = await plain.query(`SELECT reset_val AS jit FROM pg_settings WHERE name = 'jit'`);
      expect(jit).toEqual(['off', server!.jit]);
      // The api's limits are its own: the defaults of API_STATEMENT_TIMEOUT_MS and API_IDLE_IN_TRANSACTION_TIMEOUT_MS.
      const limits = `SELECT current_setting('statement_timeout') AS statement, current_setting('idle_in_transaction_session_timeout') AS idle`;
      expect(await apps[1]!.get(DataSource).query(limits)).toEqual([{ statement: '30s', idle: '10s' }]);
      expect(await apps[0]!.get(DataSource).query(limits)).toEqual(await plain.query(limits));
    } finally {
      for (const app of apps) await app.close();
    }
  });
});

describe("the api's pool limits", () => {
  const limited = () => {
    const pool = apiPoolSettings({ API_STATEMENT_TIMEOUT_MS: 300, API_IDLE_IN_TRANSACTION_TIMEOUT_MS: 300, API_POOL_WAIT_MS: 300 });
    return new DataSource(dataSourceOptions(config.DATABASE_URL, pool.session, pool.connectionWaitMs)).initialize();
  };

  it('cancel a statement that runs past the statement timeout, and the connection serves the next one', async () => {
    const api = await limited();
    try {
      await expect(api.query('SELECT pg_sleep(2)')).rejects.toThrow('canceling statement due to statement timeout');
      expect(await api.query('SELECT 1 AS one')).toEqual([{ one: 1 }]);
    } finally {
      await api.destroy();
    }
  });

  it('end a transaction left idle past its limit, so it holds no locks and no connection', async () => {
    const api = await limited();
    const runner = api.createQueryRunner();
    try {
      await runner.startTransaction();
      const [{ pid }] = (await runner.query('SELECT pg_backend_pid() AS pid')) as Array<{ pid: number }>;
      await new Promise((r) => setTimeout(r, 1_000));
      const [{ n }] = (await plain.query('SELECT count(*)::int AS n FROM pg_stat_activity WHERE pid = $1', [pid])) as Array<{ n: number }>;
      expect(n).toBe(0);
      await expect(runner.query('SELECT 1')).rejects.toThrow();
    } finally {
      await runner.release().catch(() => undefined);
      await api.destroy();
    }
  });

  it('fail a caller that waits for a connection longer than the wait limit, instead of queueing it for ever', async () => {
    const api = await limited();
    const held = Array.from({ length: 20 }, () => api.createQueryRunner());
    try {
      for (const runner of held) await runner.connect();
      await expect(api.query('SELECT 1')).rejects.toThrow(/timeout/i);
      await held[0]!.release();
      expect(await api.query('SELECT 1 AS one')).toEqual([{ one: 1 }]);
    } finally {
      for (const runner of held) await runner.release().catch(() => undefined);
      await api.destroy();
    }
  });
});
