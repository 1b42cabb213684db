import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { DataSource, type QueryRunner } from 'typeorm';
import { openFactsDatabase, positionState, useTestEnvironment, walletState } from '#testing';
import { StateStagingRepository } from './state-staging.repository.js';

// When the staging tables are analysed: a table emptied at commit keeps its column statistics, so it is
// analysed again only when the rows it is loaded with move by more than a fifth, and the figure it was
// analysed with is kept per connection, forgotten with a transaction rolled back.

const config = useTestEnvironment();
let dataSource: DataSource;
const staging = new StateStagingRepository();

const address = (n: number) => `0x${n.toString(16).padStart(40, '0')}`;
const positions = (count: number) => Array.from({ length: count }, (_, i) => ({ address: address(i), position: positionState('BTC') }));

/** Loads `count` positions in one transaction on `runner`, committed unless told. */
async function load(runner: QueryRunner, count: number, commit = true): Promise<void> {
  await runner.startTransaction();
  await staging.create(runner.manager);
  await staging.loadWallets(runner.manager, [walletState(address(0))]);
  await staging.loadPositions(runner.manager, positions(count));
  await (commit ? runner.commitTransaction() : runner.rollbackTransaction());
}

const analyses = async (runner: QueryRunner): Promise<number> => {
  const [row]: Array<{ n: string }> = await runner.query(`SELECT pg_stat_get_analyze_count('pg_temp.stage_positions'::regclass) AS n`);
  return Number(row!.n);
};

beforeAll(async () => {
  ({ dataSource } = await openFactsDatabase(config.DATABASE_URL));
});

afterAll(async () => {
  await dataSource?.destroy();
});

describe('the staging tables analysed', () => {
  it('once while the row count stays within a fifth, again when it moves further', async () => {
    const runner = dataSource.createQueryRunner();
    try {
      await load(runner, 1_000);
      await load(runner, 1_100);
      await load(runner, 900);
      expect(await analyses(runner)).toBe(1);
      await load(runner, 1_500);
      expect(await analyses(runner)).toBe(2);
    } finally {
      await runner.release();
    }
  });

  it('again after the transaction that analysed them was rolled back', async () => {
    const runner = dataSource.createQueryRunner();
    try {
      await load(runner, 1_000, false);
      await load(runner, 1_000);
      const [row]: Array<{ n: string }> = await runner.query(
        `SELECT count(*) AS n FROM pg_stats WHERE schemaname LIKE 'pg_temp%' AND tablename = 'stage_positions'`,
      );
      expect(Number(row!.n)).toBeGreaterThan(0);
    } finally {
      await runner.release();
    }
  });
});
