import { describe, expect, it } from '@jest/globals';
import { pnlCohortFor, sizeCohortFor } from '../cohorts/cohorts.js';
import {
  dataSource,
  writer,
  T0,
  MIN,
  HOUR,
  address,
  A,
  B,
  wallet,
  position,
  state,
  storeFill,
  useStateDatabase,
  apply,
} from './market-state.db-fixture.js';

useStateDatabase();

describe('a state update', () => {
  describe('cohort assignment', () => {
    // the API contract's table, lower bound inclusive and upper exclusive: exactly 250 is a Fish, exactly -10000 is Exit Liquidity.
    const SIZE_CASES: Array<[equity: string, cohort: number]> = [
      ['-5', 16],
      ['0', 16],
      ['249.999999', 16],
      ['250', 1],
      ['9999.99', 1],
      ['10000', 2],
      ['49999.999999', 2],
      ['50000', 3],
      ['100000', 4],
      ['499999.99', 4],
      ['500000', 5],
      ['1000000', 6],
      ['4999999.999999', 6],
      ['5000000', 7],
      ['123456789', 7],
    ];
    const PNL_CASES: Array<[pnl: string, cohort: number]> = [
      ['-1000000.000001', 15],
      ['-1000000', 14],
      ['-100000.01', 14],
      ['-100000', 13],
      ['-10000.000001', 13],
      ['-10000', 12],
      ['-0.000001', 12],
      ['0', 11],
      ['9999.999999', 11],
      ['10000', 10],
      ['99999.99', 10],
      ['100000', 9],
      ['999999.999999', 9],
      ['1000000', 8],
      ['25000000', 8],
    ];

    it('puts every boundary value in the cohort of the API contract, in SQL and in TypeScript alike', async () => {
      const wallets = [
        ...SIZE_CASES.map(([equity], i) => wallet(address(1000 + i), { perpEquity: equity, allTimePnl: '0' })),
        ...PNL_CASES.map(([pnl], i) => wallet(address(2000 + i), { perpEquity: '1000', allTimePnl: pnl })),
      ];
      await apply(writer, state(10, T0, wallets));
      const rows: Array<{ address: string; size_cohort_id: number; pnl_cohort_id: number }> = await dataSource.query(
        `SELECT address, size_cohort_id, pnl_cohort_id FROM wallets`,
      );
      const byAddress = new Map(rows.map((r) => [r.address, r]));
      SIZE_CASES.forEach(([equity, cohort], i) => {
        expect([equity, byAddress.get(address(1000 + i))!.size_cohort_id]).toEqual([equity, cohort]);
        expect([equity, sizeCohortFor(equity)]).toEqual([equity, cohort]);
      });
      PNL_CASES.forEach(([pnl, cohort], i) => {
        expect([pnl, byAddress.get(address(2000 + i))!.pnl_cohort_id]).toEqual([pnl, cohort]);
        expect([pnl, pnlCohortFor(pnl)]).toEqual([pnl, cohort]);
      });
    });
  });

  describe('MarketStateWriter', () => {
    it('derives the wallet fields from its positions, exactly', async () => {
      await apply(
        writer,
        state(10, T0, [
          wallet(A, {
            perpEquity: '20000',
            allTimePnl: '-12345.5',
            spotHype: '10.5',
            stakedHype: '2',
            positions: [
              // Long 2 BTC from 50000, mark 49000, liquidation 40000: progress (50000-49000)/(50000-40000) = 0.1.
              position('BTC', { szi: '2', entryPx: '50000', positionValue: '98000', unrealizedPnl: '-2000', liquidationPx: '40000' }),
              // Short 10 ETH from 3000, mark 3150, liquidation 3500: progress (3000-3150)/(3000-3500) = 0.3.
              position('ETH', { szi: '-10', entryPx: '3000', positionValue: '31500', unrealizedPnl: '-1500', liquidationPx: '3500' }),
              position('xyz:TSLA', { szi: '3', entryPx: '400', positionValue: '1230', unrealizedPnl: '30', liquidationPx: null }),
            ],
          }),
          wallet(B, { perpEquity: '100', allTimePnl: '5' }),
        ]),
      );
      const [a] = await dataSource.query(`SELECT * FROM wallets WHERE address = $1`, [A]);
      expect(a).toMatchObject({
        perp_equity: '20000',
        spot_equity: '420.0', // 10.5 HYPE at 40
        staked_equity: '80',
        total_equity: '20500.0',
        perp_pnl: '-12345.5',
        size_cohort_id: 2,
        pnl_cohort_id: 13,
        open_value: '130730',
        long_value: '99230',
        short_value: '31500',
        sum_upnl: '-3470',
        exposure_ratio: '6.53650000', // 130730 / 20000
        perp_bias: '3.38650000', // (99230 - 31500) / 20000
        closest_liq_coin: 'ETH',
        closest_liq_progress: '0.300000',
        count_open_positions: 3,
      });
      const [b] = await dataSource.query(
        `SELECT exposure_ratio, perp_bias, closest_liq_coin, count_open_positions, size_cohort_id, pnl_cohort_id FROM wallets WHERE address = $1`,
        [B],
      );
      expect(b).toEqual({
        exposure_ratio: null,
        perp_bias: null,
        closest_liq_coin: null,
        count_open_positions: 0,
        size_cohort_id: 16,
        pnl_cohort_id: 11,
      });

      const positions = await dataSource.query(
        `SELECT coin, dex, side, size::text, liquidation_progress::text, open_time, close_time FROM positions ORDER BY coin`,
      );
      expect(positions).toEqual([
        { coin: 'BTC', dex: 'main', side: 'long', size: '2', liquidation_progress: '0.100000', open_time: new Date(T0), close_time: null },
        {
          coin: 'ETH',
          dex: 'main',
          side: 'short',
          size: '10',
          liquidation_progress: '0.300000',
          open_time: new Date(T0),
          close_time: null,
        },
        { coin: 'xyz:TSLA', dex: 'xyz', side: 'long', size: '3', liquidation_progress: null, open_time: new Date(T0), close_time: null },
      ]);
    });

    it('keeps positions across updates: open time from the opening fill, flips and closes stamped at the state time', async () => {
      await storeFill(A, { coin: 'BTC', side: 'B', sz: '1', startPosition: '0', timeMs: T0 - 10 * MIN, tid: 1 });
      await storeFill(A, { coin: 'BTC', side: 'B', sz: '1', startPosition: '1', timeMs: T0 - 5 * MIN, tid: 2 });
      await apply(
        writer,
        state(10, T0, [
          wallet(A, { positions: [position('BTC', { szi: '2' }), position('ETH', { szi: '-1' })] }),
          wallet(B, { positions: [position('SOL')] }),
        ]),
      );

      // 15 minutes later: BTC grows, ETH flipped to long (through a fill), B was not read and keeps its SOL.
      await storeFill(A, { coin: 'ETH', side: 'B', sz: '3', startPosition: '-1', timeMs: T0 + 7 * MIN, tid: 3 });
      await apply(
        writer,
        state(11, T0 + 15 * MIN, [
          wallet(A, { positions: [position('BTC', { szi: '3', positionValue: '300' }), position('ETH', { szi: '2' })] }),
        ]),
      );

      // Another 15 minutes: A closed everything.
      await apply(writer, state(12, T0 + 30 * MIN, [wallet(A)]));

      const rows = await dataSource.query(
        `SELECT address, coin, side, size::text, value::text, open_time, close_time, created_at FROM positions ORDER BY address, coin, open_time`,
      );
      expect(rows).toEqual([
        {
          address: A,
          coin: 'BTC',
          side: 'long',
          size: '3',
          value: '300',
          open_time: new Date(T0 - 10 * MIN),
          close_time: new Date(T0 + 30 * MIN),
          created_at: new Date(T0),
        },
        {
          address: A,
          coin: 'ETH',
          side: 'short',
          size: '1',
          value: '100',
          open_time: new Date(T0),
          close_time: new Date(T0 + 15 * MIN),
          created_at: new Date(T0),
        },
        {
          address: A,
          coin: 'ETH',
          side: 'long',
          size: '2',
          value: '100',
          open_time: new Date(T0 + 7 * MIN),
          close_time: new Date(T0 + 30 * MIN),
          created_at: new Date(T0 + 15 * MIN),
        },
        {
          address: B,
          coin: 'SOL',
          side: 'long',
          size: '1',
          value: '100',
          open_time: new Date(T0),
          close_time: null,
          created_at: new Date(T0),
        },
      ]);
      const [a] = await dataSource.query(`SELECT earliest_activity_at, count_open_positions FROM wallets WHERE address = $1`, [A]);
      expect(a).toEqual({ earliest_activity_at: new Date(T0 - 10 * MIN), count_open_positions: 0 });
    });

    it('writes cohort snapshots per coin, cohort and position age, and the market-wide snapshot', async () => {
      await apply(
        writer,
        state(10, T0 - 3 * 24 * HOUR, [
          wallet(A, {
            perpEquity: '300',
            allTimePnl: '-20000',
            positions: [position('BTC', { positionValue: '150', unrealizedPnl: '5', fundingSinceOpen: '-1.5' })],
          }),
        ]),
      );
      await apply(
        writer,
        state(11, T0, [
          wallet(A, {
            perpEquity: '300',
            allTimePnl: '-20000',
            positions: [position('BTC', { positionValue: '150', unrealizedPnl: '5', fundingSinceOpen: '-1.5' })],
          }),
          wallet(B, {
            perpEquity: '600',
            allTimePnl: '50',
            positions: [
              position('BTC', { szi: '-0.5', positionValue: '50', unrealizedPnl: '-2', fundingSinceOpen: '0.25' }),
              position('ETH', { szi: '4', positionValue: '400', unrealizedPnl: '0' }),
            ],
          }),
        ]),
      );
      const rows = await dataSource.query(
        `SELECT timeframe, coin, cohort_id, position_count, position_count_long, total_position_value::text, total_position_value_long::text,
                total_funding::text, total_unrealized_pnl::text, total_position_size::text, total_position_size_long::text
         FROM cohort_position_snapshots WHERE created_at = $1 ORDER BY timeframe, coin, cohort_id`,
        [new Date(T0)],
      );
      // A (Fish, Semi-Rekt) opened BTC three days ago; B (Fish, Humble Earner) opened both now.
      const row = (
        timeframe: string,
        coin: string,
        cohort: number,
        n: number,
        nLong: number,
        value: string,
        valueLong: string,
        funding: string,
        upnl: string,
        size: string,
        sizeLong: string,
      ) => ({
        timeframe,
        coin,
        cohort_id: cohort,
        position_count: n,
        position_count_long: nLong,
        total_position_value: value,
        total_position_value_long: valueLong,
        total_funding: funding,
        total_unrealized_pnl: upnl,
        total_position_size: size,
        total_position_size_long: sizeLong,
      });
      const newOnly = (timeframe: string) => [
        row(timeframe, 'BTC', 1, 1, 0, '50', '0', '0.25', '-2', '0.5', '0'),
        row(timeframe, 'BTC', 11, 1, 0, '50', '0', '0.25', '-2', '0.5', '0'),
        row(timeframe, 'ETH', 1, 1, 1, '400', '400', '0', '0', '4', '4'),
        row(timeframe, 'ETH', 11, 1, 1, '400', '400', '0', '0', '4', '4'),
      ];
      const everything = (timeframe: string) => [
        row(timeframe, 'BTC', 1, 2, 1, '200', '150', '-1.25', '3', '1.5', '1'),
        row(timeframe, 'BTC', 11, 1, 0, '50', '0', '0.25', '-2', '0.5', '0'),
        row(timeframe, 'BTC', 13, 1, 1, '150', '150', '-1.5', '5', '1', '1'),
        row(timeframe, 'ETH', 1, 1, 1, '400', '400', '0', '0', '4', '4'),
        row(timeframe, 'ETH', 11, 1, 1, '400', '400', '0', '0', '4', '4'),
      ];
      // Ordered as the query: timeframe text ('24h' < '30d' < '7d' < 'all'), coin, cohort.
      expect(rows).toEqual([...newOnly('24h'), ...everything('30d'), ...everything('7d'), ...everything('all')]);

      const [market] = await dataSource.query(
        `SELECT count, count_long, count_short, open_interest::text, open_interest_long::text, open_interest_short::text, perp_equity::text, count_in_profit
         FROM market_snapshots WHERE created_at = $1`,
        [new Date(T0)],
      );
      expect(market).toEqual({
        count: 3,
        count_long: 2,
        count_short: 1,
        open_interest: '600',
        open_interest_long: '550',
        open_interest_short: '50',
        perp_equity: '900',
        count_in_profit: 1,
      });
      const [equity] = await dataSource.query(
        `SELECT total_wallets_equity::text, perp_wallets_equity::text, spot_wallets_equity::text, staking_wallets_equity::text, vault_wallets_equity FROM wallets_equity_history WHERE created_at = $1`,
        [new Date(T0)],
      );
      expect(equity).toEqual({
        total_wallets_equity: '900',
        perp_wallets_equity: '900',
        spot_wallets_equity: '0',
        staking_wallets_equity: '0',
        vault_wallets_equity: null,
      });
    });
  });
});
