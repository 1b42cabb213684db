import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { DataSource } from 'typeorm';
import { MarketStateWriter } from '#market';
import { exchangeState, openFactsDatabase, positionState, startedWriter, useTestEnvironment, walletState } from '#testing';
import { CohortPrecomputed1765110000000 } from './1765110000000-cohort-precomputed.migration.js';
import { CohortColumns1765500000000 } from './1765500000000-cohort-columns.migration.js';

// A database upgraded with state updates already stored gets the latest update's precomputed figures
// from the migration: the same the state writer writes (compared here on a database where the writer
// wrote them, after taking the migration down and up again). The later migration renaming the cohort
// columns goes down first and up again last: this one runs on the columns' names of its time.

const config = useTestEnvironment();
let dataSource: DataSource;

const HOUR = 3_600_000;
const T = Date.UTC(2026, 10, 20, 12, 0, 0);
const address = (n: number) => `0x${n.toString(16).padStart(40, '0')}`;

beforeAll(async () => {
  ({ dataSource } = await openFactsDatabase(config.DATABASE_URL));
  const writer = await startedWriter(dataSource, MarketStateWriter);
  const wallets = (hour: number) => [
    walletState(address(1), {
      perpEquity: '300',
      allTimePnl: '-20000',
      positions: [positionState('BTC', { positionValue: '170', liquidationPx: '80', unrealizedPnl: '-30' })],
    }),
    walletState(address(2), {
      perpEquity: '60000',
      allTimePnl: '150000',
      positions: [
        positionState('BTC', { szi: '-2', positionValue: '230', liquidationPx: '120', unrealizedPnl: String(hour - 10) }),
        positionState('ETH', { szi: '3', positionValue: '297', liquidationPx: '50' }),
      ],
    }),
    ...(hour > 30
      ? [walletState(address(3), { perpEquity: '900', positions: [positionState('ETH', { positionValue: '100.5', unrealizedPnl: '4' })] })]
      : []),
  ];
  await writer.apply(exchangeState(1, T - 48 * HOUR, wallets(0)));
  await writer.apply(exchangeState(2, T, wallets(48)));
});

afterAll(async () => {
  await dataSource?.destroy();
});

const latest = async () => ({
  summaries: await dataSource.query(`SELECT * FROM cohort_summary_snapshots WHERE created_at = $1 ORDER BY cohort_id, position_age`, [
    new Date(T),
  ]),
  near: await dataSource.query(
    `SELECT coin, cohort_id, timeframe, value_near_liquidation::text FROM cohort_position_snapshots WHERE created_at = $1 ORDER BY coin, cohort_id, timeframe`,
    [new Date(T)],
  ),
});

describe('migration 1765110000000 on a database with state updates', () => {
  it("fills the latest update's summaries and values near liquidation exactly as the state writer does", async () => {
    const written = await latest();
    expect(written.summaries).toHaveLength(64);
    expect(written.near.filter((r: { value_near_liquidation: string }) => r.value_near_liquidation !== '0').length).toBeGreaterThan(3);

    const runner = dataSource.createQueryRunner();
    try {
      const migration = new CohortPrecomputed1765110000000();
      const renamed = new CohortColumns1765500000000();
      await renamed.down(runner);
      await migration.down(runner);
      await migration.up(runner);
      await renamed.up(runner);
    } finally {
      await runner.release();
    }
    expect(await latest()).toEqual(written);
    // The earlier update had no such figures before the migration: none are made up for it.
    expect(await dataSource.query(`SELECT count(*)::int AS n FROM cohort_summary_snapshots WHERE created_at < $1`, [new Date(T)])).toEqual([
      { n: 0 },
    ]);
    expect(
      await dataSource.query(
        `SELECT count(*)::int AS n FROM cohort_position_snapshots WHERE created_at < $1 AND value_near_liquidation IS NOT NULL`,
        [new Date(T)],
      ),
    ).toEqual([{ n: 0 }]);
  });
});
