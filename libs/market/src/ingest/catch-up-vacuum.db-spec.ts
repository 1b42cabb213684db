import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from '#database';
import { resetDatabase, useTestEnvironment } from '#testing';
import { CatchUpVacuum, CHUNKS_PER_CATCH_UP_VACUUM, CHURNED_TABLES } from './catch-up-vacuum.js';

const config = useTestEnvironment();

describe('CatchUpVacuum', () => {
  let dataSource: DataSource;

  beforeAll(async () => {
    await resetDatabase(config.DATABASE_URL);
    dataSource = new DataSource(dataSourceOptions(config.DATABASE_URL));
    await dataSource.initialize();
  });
  afterAll(async () => {
    await dataSource.destroy();
  });

  const vacuumed = async (): Promise<Record<string, number>> => {
    const rows: Array<{ relname: string; vacuums: number; analyzes: number }> = await dataSource.query(
      `SELECT relname, vacuum_count::int AS vacuums, analyze_count::int AS analyzes FROM pg_stat_user_tables WHERE relname = ANY($1)`,
      [[...CHURNED_TABLES]],
    );
    // Every table vacuumed; every one but positions (the state writer analyses it) analysed too.
    return Object.fromEntries(rows.map((r) => [r.relname, r.relname === 'positions' ? r.vacuums : Math.min(r.vacuums, r.analyzes)]));
  };

  it('vacuums every churned table, and analyses all but positions, once per CHUNKS_PER_CATCH_UP_VACUUM chunks', async () => {
    const vacuum = new CatchUpVacuum(dataSource);
    const errors: Error[] = [];
    const before = await vacuumed();
    expect(Object.keys(before).sort()).toEqual([...CHURNED_TABLES].sort());

    for (let i = 1; i < CHUNKS_PER_CATCH_UP_VACUUM; i++) vacuum.chunkStored((e) => errors.push(e));
    await vacuum.settle();
    // Statistics reach pg_stat_user_tables when a backend reports them: ask a fresh snapshot.
    await dataSource.query(`SELECT pg_stat_clear_snapshot()`);
    expect(await vacuumed()).toEqual(before);

    vacuum.chunkStored((e) => errors.push(e));
    await vacuum.settle();
    await waitFor(async () => {
      await dataSource.query(`SELECT pg_stat_clear_snapshot()`);
      const after = await vacuumed();
      return CHURNED_TABLES.every((t) => after[t] === before[t]! + 1);
    });
    expect(errors).toEqual([]);
  });
});

async function waitFor(check: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 100; i++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('the vacuum counts did not move');
}
