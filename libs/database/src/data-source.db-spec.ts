import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { DataSource } from 'typeorm';
import { resetDatabase, useTestEnvironment } from '#testing';
import { dataSourceOptions, WRITER_SESSION } from './data-source.js';

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
      [0, 1].map(() => writer.transaction(async (q) => (await q.query(`SELECT current_setting('jit') AS jit, pg_backend_pid() AS pid, pg_sleep(0.05)`))[0] as { jit: string; pid: number })),
    );
    expect(new Set(sessions.map((s) => s.pid)).size).toBe(2);
    expect(sessions.map((s) => s.jit)).toEqual(['off', 'off']);
    const [own]: Array<{ jit: string }> = await plain.query(`SELECT current_setting('jit') AS jit`);
    expect(own!.jit).toBe(server!.jit);
  });
});
