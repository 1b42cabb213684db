import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { DataSource } from 'typeorm';
import { MarketStateWriter } from '#market';
import { address, exchangeState, openFactsDatabase, positionState, startedWriter, useTestEnvironment, walletState } from '#testing';
import { CohortColumns1765500000000 } from './1765500000000-cohort-columns.migration.js';

// The cohort columns and indexes renamed, and back when taken down: every one of them (a name left out
// would keep the API's word in the schema), with the rows as they were.

const config = useTestEnvironment();
let dataSource: DataSource;
const migration = new CohortColumns1765500000000();

async function run(step: 'up' | 'down'): Promise<void> {
  const runner = dataSource.createQueryRunner();
  try {
    await migration[step](runner);
  } finally {
    await runner.release();
  }
}

/** The schema's column and index names holding `word`, as table.name. */
const namesWith = async (word: string): Promise<string[]> =>
  (
    await dataSource.query(
      `SELECT table_name || '.' || column_name AS name FROM information_schema.columns WHERE table_schema = 'public' AND column_name LIKE $1
       UNION ALL
       SELECT tablename || '.' || indexname FROM pg_indexes WHERE schemaname = 'public' AND indexname LIKE $1`,
      [`%${word}%`],
    )
  )
    .map((r: { name: string }) => r.name)
    .sort();

const cohortRows = async () => ({
  wallets: await dataSource.query(`SELECT * FROM wallets ORDER BY address`),
  positions: await dataSource.query(`SELECT * FROM cohort_position_snapshots ORDER BY 1, 2, 3, 4`),
  summaries: await dataSource.query(`SELECT * FROM cohort_summary_snapshots ORDER BY 1, 2, 3`),
  sizes: await dataSource.query(`SELECT * FROM position_size_snapshots ORDER BY 1, 2, 3`),
});

beforeAll(async () => {
  ({ dataSource } = await openFactsDatabase(config.DATABASE_URL));
  const writer = await startedWriter(dataSource, MarketStateWriter);
  await writer.apply(
    exchangeState(1, Date.UTC(2026, 10, 20), [
      walletState(address(1), { perpEquity: '60000', allTimePnl: '-20000', positions: [positionState('BTC', { positionValue: '170' })] }),
    ]),
  );
});

afterAll(async () => {
  await dataSource?.destroy();
});

describe('migration 1765500000000', () => {
  it('renames every cohort column and index, and back when taken down, keeping the rows', async () => {
    const renamed = [
      ['cohort_position_snapshots.segment_id', 'cohort_position_snapshots.cohort_id'],
      ['cohort_summary_snapshots.segment_id', 'cohort_summary_snapshots.cohort_id'],
      ['position_size_snapshots.size_segment_id', 'position_size_snapshots.size_cohort_id'],
      ['wallets.pnl_segment_id', 'wallets.pnl_cohort_id'],
      ['wallets.size_segment_id', 'wallets.size_cohort_id'],
      ['wallets.wallets_pnl_segment_idx', 'wallets.wallets_pnl_cohort_idx'],
      ['wallets.wallets_size_segment_idx', 'wallets.wallets_size_cohort_idx'],
    ];
    const [before, after] = [renamed.map(([old]) => old!), renamed.map(([, name]) => name!)];
    expect(await namesWith('segment')).toEqual([]);
    expect((await namesWith('cohort')).filter((name) => after.includes(name))).toEqual(after);
    const rows = await cohortRows();
    expect(rows.summaries.length).toBeGreaterThan(0);

    await run('down');
    expect(await namesWith('segment')).toEqual(before);
    expect((await namesWith('cohort')).filter((name) => after.includes(name))).toEqual([]);

    await run('up');
    expect(await namesWith('segment')).toEqual([]);
    expect(await cohortRows()).toEqual(rows);
  });
});
