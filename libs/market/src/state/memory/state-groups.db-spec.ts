import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { DataSource } from 'typeorm';
import type { ExchangeState, PositionStateRecord, WalletStateRecord } from '#exchange';
import { address, feed, fillsBlock, openFactsDatabase, resetDatabase, startedWriter, useTestEnvironment, wireFill, type WireFill } from '#testing';
import { ExchangeFactsWriter } from '../../facts/exchange-facts.writer.js';
import { MarketStateWriter } from '../market-state.writer.js';

const config = useTestEnvironment();
let dataSource: DataSource;
let facts: ExchangeFactsWriter;

const T0 = Date.UTC(2026, 10, 20, 0, 0, 0);
const STEP = 15 * 60_000;
const COINS = ['BTC', 'ETH', 'SOL', 'xyz:TSLA', 'HYPE'];
const PROCESSED_AT = new Date(Date.UTC(2026, 10, 21));

/** Every table a state update writes, as sorted JSON rows without the serial ids. */
const STATE_TABLES = [
  'wallets', 'positions', 'cohort_position_snapshots', 'cohort_summary_snapshots', 'position_size_snapshots', 'market_snapshots',
  'wallets_equity_history', 'holder_history', 'wallet_pnl_history', 'wallet_pnl_periods', 'wallet_rankings', 'wallet_rankings_status', 'state_updates', 'state_status',
];

async function dump(): Promise<Record<string, string[]>> {
  const tables: Record<string, string[]> = {};
  for (const table of STATE_TABLES) {
    const rows: Array<{ row: string }> = await dataSource.query(`SELECT (to_jsonb(t) - 'id')::text AS row FROM ${table} t ORDER BY 1`);
    tables[table] = rows.map((r) => r.row);
  }
  return tables;
}

/** A fixed pseudo-random sequence (a linear congruential generator), so every run builds the same states. */
function random(seed: number) {
  let x = seed;
  const next = (n: number) => {
    x = (x * 1_103_515_245 + 12_345) % 2_147_483_648;
    return Math.floor((x / 2_147_483_648) * n);
  };
  const decimal = (maxWhole: number, maxScale: number, signed = false) => {
    const scale = next(maxScale + 1);
    const units = next(maxWhole * 10 ** scale + 1);
    const text = scale === 0 ? String(units) : `${Math.floor(units / 10 ** scale)}.${String(units % 10 ** scale).padStart(scale, '0')}`;
    return signed && next(3) === 0 ? `-${text}` : text;
  };
  return { next, decimal };
}

/**
 * States of 40 wallets over 24 updates, with what the writers must agree on: wallets that appear late or
 * are missing from an update, PnL unknown, HYPE balances that change or not, no HYPE price; positions that
 * stay, grow, flip, close and reopen, on HIP-3 markets too; liquidation prices absent, at the entry, past
 * the mark and beyond it (progress clamped to 0 and 1), decimals of every scale. And the fills their open
 * times come from.
 */
function scenario(): { states: ExchangeState[]; fills: Array<[string, WireFill]>[] } {
  const { next, decimal } = random(42);
  const held = new Map<string, PositionStateRecord>();
  const pnl = new Map<number, string>();
  const hype = new Map<number, [string, string]>();
  const states: ExchangeState[] = [];
  const fills: Array<[string, WireFill]>[] = [];
  let tid = 1;
  for (let u = 0; u < 24; u++) {
    const timeMs = T0 + (u + 1) * STEP;
    const wallets: WalletStateRecord[] = [];
    const blockFills: Array<[string, WireFill]> = [];
    for (let w = 0; w < 40; w++) {
      if (w >= 30 && u < 6) continue; // appear late
      if (next(10) === 0) continue; // not read this time
      const positions: PositionStateRecord[] = [];
      for (const coin of COINS) {
        const key = `${w}:${coin}`;
        const before = held.get(key);
        const roll = next(10);
        if (before && roll < 7) {
          // Kept (prices moved), sometimes flipped to the other side.
          const flip = roll === 0;
          const szi = flip ? (before.szi.startsWith('-') ? before.szi.slice(1) : `-${before.szi}`) : before.szi;
          positions.push(position(coin, szi));
          if (flip) blockFills.push([address(w), wireFill({ coin, px: '100', sz: '1', side: 'B', time: timeMs - 60_000, tid: tid++, startPosition: before.szi })]);
        } else if (!before && roll < 3) {
          const szi = `${next(2) ? '-' : ''}${decimal(50, 4) === '0' ? '1' : decimal(50, 4).replace(/^0(\.0*)?$/, '2')}`;
          positions.push(position(coin, szi));
          if (next(2)) blockFills.push([address(w), wireFill({ coin, px: '100', sz: '1', side: 'B', time: timeMs - 120_000 - next(600_000), tid: tid++, startPosition: '0' })]);
        }
      }
      for (const coin of COINS) held.delete(`${w}:${coin}`);
      for (const p of positions) held.set(`${w}:${p.coin}`, p);
      if (!pnl.has(w) || next(4) > 0) pnl.set(w, decimal(2_000_000, 6, true));
      if (!hype.has(w) || next(5) === 0) hype.set(w, next(3) === 0 ? ['0', '0'] : [decimal(10_000, 4), decimal(5_000, 2)]);
      wallets.push({
        address: address(w),
        perpEquity: decimal(6_000_000, 6, true),
        allTimePnl: next(10) === 0 ? null : pnl.get(w)!,
        spotHype: hype.get(w)![0],
        stakedHype: hype.get(w)![1],
        positions,
      });
    }
    states.push({ height: 100 + u * 7, timeMs, hypePx: next(6) === 0 ? null : decimal(60, 3), wallets });
    fills.push(blockFills);
  }
  return { states, fills };

  function position(coin: string, szi: string): PositionStateRecord {
    const entry = decimal(90_000, 3);
    const entryPx = entry === '0' ? '1' : entry;
    const size = Number(szi.replace('-', ''));
    const valueText = decimal(Math.max(1, Math.round(size * 90_000)), 6);
    const liquidation = next(6);
    return {
      coin,
      szi,
      entryPx,
      positionValue: valueText === '0' ? '1' : valueText,
      unrealizedPnl: decimal(20_000, 6, true),
      // Absent, at the entry, or anywhere around it: progress from below 0 to beyond 1.
      liquidationPx: liquidation === 0 ? null : liquidation === 1 ? entryPx : decimal(180_000, 2),
      leverageType: next(2) ? 'cross' : 'isolated',
      leverage: 1 + next(40),
      marginUsed: decimal(100_000, 6),
      fundingSinceOpen: decimal(500, 6, true),
    };
  }
}

async function storeFills(fills: Array<[string, WireFill]>[]): Promise<void> {
  const blocks = fills.filter((f) => f.length > 0).map((events, i) => fillsBlock(i + 1, Math.max(...events.map(([, f]) => f.time)), events));
  await facts.writeBlocks(feed(blocks), 'test');
}

beforeAll(async () => {
  ({ dataSource, writer: facts } = await openFactsDatabase(config.DATABASE_URL));
});

afterAll(async () => {
  await dataSource?.destroy();
});

describe('state updates derived in memory, in groups', () => {
  it('write the same rows as the set-based SQL applying each update on its own, whatever the grouping, and after a restart', async () => {
    const { states, fills } = scenario();
    expect(states.flatMap((s) => s.wallets.flatMap((w) => w.positions)).length).toBeGreaterThan(1_000);

    await resetDatabase(config.DATABASE_URL);
    await storeFills(fills);
    const sql = await startedWriter(dataSource, MarketStateWriter);
    for (const state of states) expect((await sql.apply(state, { processedAt: PROCESSED_AT })).applied).toBe(true);
    const expected = await dump();
    expect(expected['positions']!.filter((row) => row.includes('"close_time": null')).length).toBeGreaterThan(20);
    expect(expected['positions']!.filter((row) => !row.includes('"close_time": null')).length).toBeGreaterThan(100);

    await resetDatabase(config.DATABASE_URL);
    await storeFills(fills);
    let memory = await startedWriter(dataSource, MarketStateWriter);
    // Groups of 4, 1, 7 and 2, then a restart (a new writer reads its model from the tables), then 10 more.
    let at = 0;
    for (const size of [4, 1, 7, 2, 10]) {
      if (at === 14) memory = await startedWriter(dataSource, MarketStateWriter);
      const group = states.slice(at, at + size);
      at += size;
      const results = await memory.applyGroup(group, { processedAt: PROCESSED_AT, inMemory: true, laterUpdateFollows: at < states.length });
      expect(results.map((r) => r.applied)).toEqual(group.map(() => true));
    }
    const grouped = await dump();
    for (const table of STATE_TABLES) expect([table, grouped[table]]).toEqual([table, expected[table]]);
  });

  it('skips the updates of a group at or below the newest applied height, and refuses heights that do not rise', async () => {
    const { states } = scenario();
    await resetDatabase(config.DATABASE_URL);
    const writer = await startedWriter(dataSource, MarketStateWriter);
    await writer.applyGroup(states.slice(0, 3), { inMemory: true });
    const results = await writer.applyGroup(states.slice(1, 5), { inMemory: true });
    expect(results.map((r) => r.applied)).toEqual([false, false, true, true]);
    await expect(writer.applyGroup([states[6]!, states[5]!], { inMemory: true })).rejects.toThrow('state updates of a group must rise in height: 142 then 135');
    expect(await dataSource.query(`SELECT count(*)::int AS n FROM state_updates`)).toEqual([{ n: 5 }]);
  });
});
