import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import Big from 'big.js';
import { DataSource } from 'typeorm';
import { exchangeState, openFactsDatabase, startedWriter, useTestEnvironment, walletState } from '#testing';
import { MarketStateWriter } from './market-state.writer.js';

// The day, week and month PnL the state writer keeps for the leaderboard, against the leaderboard's
// definition looked up here in the PnL history at the latest update: all-time PnL minus the newest row at
// or before 24 hours, 7 and 30 days earlier, or minus the first row for a wallet first seen since then.

const config = useTestEnvironment();
let dataSource: DataSource;

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const T = Date.UTC(2026, 10, 20, 12, 0, 0);
const address = (n: number) => `0x${n.toString(16).padStart(40, '0')}`;
/** Updates 40, 20, 8 and 2 days, 30 and 12 hours, and 15 minutes before T, and at T: every window edge has rows on both sides. */
const UPDATES = [40 * DAY, 20 * DAY, 8 * DAY, 7 * DAY, 2 * DAY, 30 * HOUR, 24 * HOUR, 12 * HOUR, HOUR / 4, 0].map((ago) => T - ago);

/** Wallet i's all-time PnL at update k, or absent: some wallets appear late, some PnLs never move. */
function pnlAt(i: number, k: number): string | null {
  if (k < i % 5) return null;
  if (i % 7 === 0) return '1000';
  return String(((i * 13 + k * k * 7) % 41) * 250 - 5000 + (k % 3) * 0.125);
}

beforeAll(async () => {
  ({ dataSource } = await openFactsDatabase(config.DATABASE_URL));
  const writer = await startedWriter(dataSource, MarketStateWriter);
  for (const [k, time] of UPDATES.entries()) {
    const wallets = Array.from({ length: 40 }, (_, i) => i)
      .filter((i) => pnlAt(i, k) !== null)
      .map((i) => walletState(address(0x500 + i), { allTimePnl: pnlAt(i, k)! }));
    await writer.apply(exchangeState(k + 1, time, wallets));
  }
}, 120_000);

afterAll(async () => {
  await dataSource?.destroy();
});

describe('the PnL periods the state writer keeps', () => {
  it("equal the leaderboard's definition over the PnL history, for every wallet", async () => {
    // Worked out here from the history rows, not by the writer's SQL.
    const history: Array<{ address: string; at: Date; pnl: string }> = await dataSource.query(
      `SELECT address, created_at AS at, perp_pnl::text AS pnl FROM wallet_pnl_history ORDER BY address, created_at`,
    );
    const wallets: Array<{ address: string; pnl: string }> = await dataSource.query(
      `SELECT address, perp_pnl::text AS pnl FROM wallets ORDER BY address`,
    );
    const change = (now: string, address: string, hours: number) => {
      const rows = history.filter((h) => h.address === address);
      const before = rows.filter((h) => h.at.getTime() <= T - hours * HOUR).at(-1) ?? rows[0];
      return new Big(now).minus(before?.pnl ?? now).toFixed();
    };
    const expected = wallets.map((w) => ({
      address: w.address,
      pnl_day: change(w.pnl, w.address, 24),
      pnl_week: change(w.pnl, w.address, 7 * 24),
      pnl_month: change(w.pnl, w.address, 30 * 24),
    }));
    const kept: Array<Record<string, string>> = await dataSource.query(
      `SELECT address, trim_scale(pnl_day)::text AS pnl_day, trim_scale(pnl_week)::text AS pnl_week, trim_scale(pnl_month)::text AS pnl_month
       FROM wallet_pnl_periods ORDER BY address`,
    );
    expect(kept).toHaveLength(40);
    expect(kept).toEqual(expected);
    // Not all zeros: the windows see different history rows.
    expect(new Set(kept.map((r) => `${r.pnl_day}/${r.pnl_week}/${r.pnl_month}`)).size).toBeGreaterThan(10);
  });

  it('give a wallet whose PnL never moved zeros', async () => {
    const [steady]: Array<Record<string, string>> = await dataSource.query(
      `SELECT pnl_day::text, pnl_week::text, pnl_month::text FROM wallet_pnl_periods WHERE address = $1`,
      [address(0x500 + 7)],
    );
    expect(steady).toEqual({ pnl_day: '0', pnl_week: '0', pnl_month: '0' });
  });
});
