import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import Big from 'big.js';
import { DataSource } from 'typeorm';
import { exchangeState, openFactsDatabase, positionState, startedWriter, useTestEnvironment, walletState } from '#testing';
import type { WalletStateRecord } from '#exchange';
import { COHORT_IDS } from '../cohorts/cohorts.js';
import { MarketStateWriter } from './market-state.writer.js';
import { NEAR_LIQUIDATION_PROGRESS, ONE_READ_MAX_POSITIONS, StateSnapshotsRepository } from './state-snapshots.repository.js';

// What the liquidation-risk and cohort-summary routes read, written by the state writer at each update,
// against the same figures computed here, in TypeScript with big.js, from the wallets and positions
// tables the update left: the definitions the routes computed at each request before.

const config = useTestEnvironment();
let dataSource: DataSource;

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
const T = Date.UTC(2026, 10, 20, 12, 0, 0);
const address = (n: number) => `0x${n.toString(16).padStart(40, '0')}`;

const EQUITY = ['-50', '100', '5000', '20000', '75000', '300000', '700000', '2000000', '9000000'];
const PNL = ['-2000000', '-500000', '-50000', '-5000', '0', '5000', '50000', '500000', '5000000'];
// Marks of a 2-unit position entered at 100 with its liquidation price 20 away: progress 0, 0.5, exactly 0.75, 0.8, 0.25.
const MARK_STEPS = ['0', '10', '15', '16', '5'];
const COINS = ['BTC', 'ETH', 'xyz:TSLA'];

/** Wallet i's state at update `k` (marks move with k); `extra` opens one more coin. */
function walletAt(i: number, k: number, extra?: string): WalletStateRecord {
  const coins = COINS.filter((_, c) => (i + c) % 3 !== 0);
  if (extra) coins.push(extra);
  return walletState(address(0x100 + i), {
    perpEquity: new Big(EQUITY[i % EQUITY.length]!).plus(k).toFixed(),
    allTimePnl: PNL[(i * 7) % PNL.length],
    positions: coins.map((coin, c) => {
      const long = (i + c) % 2 === 0;
      const step = new Big(MARK_STEPS[(i + c + k) % MARK_STEPS.length]!);
      const mark = long ? new Big(100).minus(step) : new Big(100).plus(step);
      return positionState(coin, {
        szi: long ? '2' : '-2',
        entryPx: '100',
        positionValue: mark.times(2).toFixed(),
        unrealizedPnl: String(((i + c + k) % 5) * 3.5 - 7),
        // Every fifth position has no liquidation price, so no progress.
        liquidationPx: (i + c) % 5 === 4 ? null : long ? '80' : '120',
      });
    }),
  });
}

interface WalletRow {
  address: string;
  size_cohort_id: number;
  pnl_cohort_id: number;
  perp_equity: string;
}
interface PositionRow {
  address: string;
  coin: string;
  side: string;
  value: string;
  unrealized_pnl: string;
  liquidation_progress: string | null;
  open_time: Date;
}

const WINDOWS: Record<string, number | null> = { all: null, '24h': DAY, '7d': 7 * DAY, '30d': 30 * DAY };

beforeAll(async () => {
  ({ dataSource } = await openFactsDatabase(config.DATABASE_URL));
  const writer = await startedWriter(dataSource, MarketStateWriter);
  const wallets = (from: number, to: number, k: number, extra?: (i: number) => string | undefined) =>
    Array.from({ length: to - from }, (_, j) => walletAt(from + j, k, extra?.(from + j)));
  // Positions opened 40, 10 and 3 days and 30 minutes before T; wallets 40 to 47 are not read by the last two
  // updates (they keep their rows); wallets 0 to 7 open SOL 30 minutes before T; wallets 8 to 11 close their first coin.
  await writer.apply(exchangeState(1, T - 40 * DAY, wallets(0, 16, 0)));
  await writer.apply(exchangeState(2, T - 10 * DAY, wallets(0, 32, 1)));
  await writer.apply(exchangeState(3, T - 3 * DAY, wallets(0, 48, 2)));
  const late = (k: number) =>
    wallets(0, 40, k, (i) => (i < 8 ? 'SOL' : undefined)).map((w, i) => (i >= 8 && i < 12 ? { ...w, positions: w.positions.slice(1) } : w));
  await writer.apply(exchangeState(4, T - 30 * MIN, late(3)));
  await writer.apply(exchangeState(5, T, late(4)));
});

afterAll(async () => {
  await dataSource?.destroy();
});

async function tables(): Promise<{ wallets: Map<string, WalletRow>; positions: PositionRow[] }> {
  const wallets: WalletRow[] = await dataSource.query(
    `SELECT address, size_cohort_id, pnl_cohort_id, perp_equity::text AS perp_equity FROM wallets`,
  );
  const positions: PositionRow[] = await dataSource.query(
    `SELECT address, coin, side, value::text AS value, unrealized_pnl::text AS unrealized_pnl, trim_scale(liquidation_progress)::text AS liquidation_progress, open_time
     FROM positions WHERE close_time IS NULL`,
  );
  return { wallets: new Map(wallets.map((w) => [w.address, w])), positions };
}

const inCohort = (w: WalletRow, cohortId: number) => w.size_cohort_id === cohortId || w.pnl_cohort_id === cohortId;

describe('figures precomputed at each state update', () => {
  it('has positions in every age, at and around the risk threshold, and wallets the last updates did not read', async () => {
    const { positions } = await tables();
    const ages = new Set(positions.map((p) => T - p.open_time.getTime()));
    expect([...ages].sort((a, b) => a - b)).toEqual([30 * MIN, 3 * DAY, 10 * DAY, 40 * DAY]);
    expect(new Set(positions.map((p) => p.liquidation_progress))).toEqual(new Set([null, '0', '0.5', '0.75', '0.8', '0.25']));
    expect(positions.filter((p) => p.address === address(0x100 + 45)).length).toBeGreaterThan(0);
  });

  it('writes each cohort and position age the summary of its traders, as the route defines it', async () => {
    const { wallets, positions } = await tables();
    const byWallet = new Map<string, PositionRow[]>();
    for (const p of positions) byWallet.set(p.address, [...(byWallet.get(p.address) ?? []), p]);
    const expected = COHORT_IDS.flatMap((cohortId) =>
      Object.entries(WINDOWS).map(([age, window]) => {
        const traders = [...byWallet].filter(
          ([a, own]) =>
            inCohort(wallets.get(a)!, cohortId) && (window === null || Math.max(...own.map((p) => p.open_time.getTime())) >= T - window),
        );
        const sum = (keep: (p: PositionRow) => boolean) =>
          traders
            .flatMap(([, own]) => own.filter(keep))
            .reduce((s, p) => s.plus(p.value), new Big(0))
            .toFixed();
        const count = (keep: (p: PositionRow) => boolean) => traders.flatMap(([, own]) => own.filter(keep)).length;
        return {
          cohort_id: cohortId,
          position_age: age,
          traders: traders.length,
          traders_in_profit: traders.filter(([, own]) => own.reduce((s, p) => s.plus(p.unrealized_pnl), new Big(0)).gt(0)).length,
          positions: count(() => true),
          long_positions: count((p) => p.side === 'long'),
          short_positions: count((p) => p.side === 'short'),
          value: sum(() => true),
          long_value: sum((p) => p.side === 'long'),
          short_value: sum((p) => p.side === 'short'),
          active_perp_equity: traders.reduce((s, [a]) => s.plus(wallets.get(a)!.perp_equity), new Big(0)).toFixed(),
        };
      }),
    );
    const stored = await dataSource.query(
      `SELECT cohort_id, position_age, traders, traders_in_profit, positions, long_positions, short_positions, trim_scale(value)::text AS value,
              trim_scale(long_value)::text AS long_value, trim_scale(short_value)::text AS short_value, trim_scale(active_perp_equity)::text AS active_perp_equity
       FROM cohort_summary_snapshots WHERE created_at = $1`,
      [new Date(T)],
    );
    const key = (r: { cohort_id: number; position_age: string }) => `${r.cohort_id}/${r.position_age}`;
    expect(new Map(stored.map((r: { cohort_id: number; position_age: string }) => [key(r), r]))).toEqual(
      new Map(expected.map((r) => [key(r), r])),
    );
    // Not a table of zeros: most cohorts have traders, and the windows pick fewer of them.
    expect(expected.filter((r) => r.traders > 0).length).toBeGreaterThan(40);
    expect(expected.find((r) => r.position_age === '24h' && r.traders > 0)).toBeDefined();
  });

  it('writes beside each cohort and coin snapshot the value at or past 75 % of the way to liquidation', async () => {
    const { wallets, positions } = await tables();
    const stored: Array<{
      timeframe: string;
      coin: string;
      cohort_id: number;
      value_near_liquidation: string;
      total_position_value: string;
    }> = await dataSource.query(
      `SELECT timeframe, coin, cohort_id, trim_scale(value_near_liquidation)::text AS value_near_liquidation, trim_scale(total_position_value)::text AS total_position_value
       FROM cohort_position_snapshots WHERE created_at = $1`,
      [new Date(T)],
    );
    const figures = (timeframe: string, coin: string, cohortId: number) => {
      const window = WINDOWS[timeframe]!;
      const own = positions.filter(
        (p) => p.coin === coin && inCohort(wallets.get(p.address)!, cohortId) && (window === null || p.open_time.getTime() >= T - window),
      );
      const near = own.filter((p) => p.liquidation_progress !== null && new Big(p.liquidation_progress).gte(NEAR_LIQUIDATION_PROGRESS));
      return {
        timeframe,
        coin,
        cohort_id: cohortId,
        value_near_liquidation: near.reduce((s, p) => s.plus(p.value), new Big(0)).toFixed(),
        total_position_value: own.reduce((s, p) => s.plus(p.value), new Big(0)).toFixed(),
      };
    };
    expect(stored.length).toBeGreaterThan(50);
    expect(stored).toEqual(stored.map((r) => figures(r.timeframe, r.coin, r.cohort_id)));
    expect(stored.filter((r) => r.value_near_liquidation !== '0').length).toBeGreaterThan(20);
  });

  it('writes every cohort and age at every update, zeros included', async () => {
    const counts = await dataSource.query(
      `SELECT created_at, count(*)::int AS n FROM cohort_summary_snapshots GROUP BY created_at ORDER BY created_at`,
    );
    expect(counts.map((r: { n: number }) => r.n)).toEqual([64, 64, 64, 64, 64]);
  });

  it('are the same rows whether the open positions are read once for all snapshots or by each', async () => {
    const SNAPSHOT_TABLES = ['cohort_position_snapshots', 'cohort_summary_snapshots', 'position_size_snapshots', 'market_snapshots'];
    const at = new Date(T + HOUR).toISOString();
    const written = async (positions: number) => {
      const runner = dataSource.createQueryRunner();
      await runner.startTransaction();
      try {
        const q = runner.manager;
        // A position whose wallet has no row: counted by the market and the sizes, in no cohort.
        await q.query(
          `INSERT INTO positions (address, coin, dex, side, size, entry_price, value, unrealized_pnl, funding, leverage_type, leverage, margin_used, open_time, created_at, updated_at)
           VALUES ($1, 'BTC', 'main', 'long', 1, 100, 100, 5, 0, 'cross', 5, 20, $2, $2, $2)`,
          [address(0xfff), at],
        );
        const cohortRows = await new StateSnapshotsRepository().openPositions(q, at, positions);
        const rows: Record<string, string[]> = {};
        for (const table of SNAPSHOT_TABLES) {
          // market_snapshots.id is a sequence's, not rolled back.
          const read: Array<{ row: string }> = await q.query(
            `SELECT (to_jsonb(t) - 'id')::text AS row FROM ${table} t WHERE created_at = $1 ORDER BY 1`,
            [at],
          );
          rows[table] = read.map((r) => r.row);
        }
        return { cohortRows, rows };
      } finally {
        await runner.rollbackTransaction();
        await runner.release();
      }
    };
    const once = await written(ONE_READ_MAX_POSITIONS);
    const each = await written(ONE_READ_MAX_POSITIONS + 1);
    expect(once.rows.market_snapshots).toHaveLength(1);
    expect(once.rows.cohort_summary_snapshots).toHaveLength(64);
    expect(once.cohortRows).toBe(once.rows.cohort_position_snapshots!.length);
    expect(each).toEqual(once);
  });
});
