import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Module, type INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { DataSource } from 'typeorm';
import { RuntimeModule } from '#runtime';
import { resetDatabase, useTestEnvironment } from '#testing';
import { dataSourceOptions, WRITER_SESSION } from './data-source.js';
import { DatabaseModule, DatabaseSessionModule } from './database.module.js';

// Two apps of one process, as `npm start` runs them: the ingestor's with its session settings, the api's without.
@Module({ imports: [RuntimeModule.forApp('ingestor'), DatabaseModule, DatabaseSessionModule.of(WRITER_SESSION)] })
class WriterAppModule {}
@Module({ imports: [RuntimeModule.forApp('api'), DatabaseModule] })
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
    } finally {
      for (const app of apps) await app.close();
    }
  });
});
