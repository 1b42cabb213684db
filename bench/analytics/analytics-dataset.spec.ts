import { describe, expect, it } from '@jest/globals';
import Big from 'big.js';
import { pnlCohortFor, sizeCohortFor } from '#market';
import { AnalyticsDataset, type AnalyticsSettings, liquidationProgress, STATE_INTERVAL_MS } from './analytics-dataset.js';
import { FILL_COLUMNS, fillCopyChunks, type FillStats } from './analytics-fills.js';
import { SnapshotHistory } from './analytics-history.js';
import { POSITION_COLUMNS, positionCopyChunks, WALLET_COLUMNS, walletCopyChunks } from './analytics-state-rows.js';

const SETTINGS: AnalyticsSettings = { seed: 9, wallets: 400, positions: 1_000, fills: 12_000, days: 1, endMs: Date.UTC(2026, 10, 15) };

const lines = (chunks: Iterable<string>): string[][] =>
  [...chunks]
    .join('')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => l.split('\t'));
const newStats = (): FillStats => ({ fills: 0, liquidationFills: 0, lastPrices: new Map() });
const sum = (values: string[]): Big => values.reduce((a, v) => a.plus(v), new Big(0));

describe('analytics dataset', () => {
  const dataset = new AnalyticsDataset(SETTINGS);
  const wallets = Array.from({ length: SETTINGS.wallets }, (_, i) => dataset.wallet(i));

  it('is the same for the same settings and differs with the seed', () => {
    const again = new AnalyticsDataset(SETTINGS);
    expect(again.wallet(17)).toEqual(wallets[17]);
    expect([...fillCopyChunks(again, newStats())].join('')).toBe([...fillCopyChunks(dataset, newStats())].join(''));
    const other = new AnalyticsDataset({ ...SETTINGS, seed: 10 });
    expect(other.wallet(17).wallet.address).not.toBe(wallets[17]!.wallet.address);
  });

  it('gives each coin exactly its count of open positions, at most one per wallet, BTC and ETH the most', () => {
    const byCoin = new Map<string, number>();
    for (const { open } of wallets) {
      expect(new Set(open.map((p) => p.coin)).size).toBe(open.length);
      for (const p of open) byCoin.set(p.coin, (byCoin.get(p.coin) ?? 0) + 1);
    }
    for (const c of dataset.coins) expect(byCoin.get(c.coin) ?? 0).toBe(c.openPositions);
    expect([...byCoin.values()].reduce((a, b) => a + b, 0)).toBe(SETTINGS.positions);
    const ranked = [...byCoin].sort((a, b) => b[1] - a[1]).map(([coin]) => coin);
    expect(ranked.slice(0, 2)).toEqual(['BTC', 'ETH']);
  });

  it('writes wallets as the state writer does: cohorts by equity and PnL, sums and ratios of the open positions', () => {
    for (const { wallet: w, open } of wallets) {
      expect(w.sizeCohortId).toBe(sizeCohortFor(w.perpEquity));
      expect(w.pnlCohortId).toBe(pnlCohortFor(w.perpPnl));
      expect(w.countOpenPositions).toBe(open.length);
      expect(new Big(w.openValue).eq(sum(open.map((p) => p.value)))).toBe(true);
      expect(new Big(w.longValue).eq(sum(open.filter((p) => p.side === 'long').map((p) => p.value)))).toBe(true);
      expect(new Big(w.sumUpnl).eq(sum(open.map((p) => p.unrealizedPnl)))).toBe(true);
      expect(new Big(w.totalEquity).eq(new Big(w.perpEquity).plus(w.spotEquity).plus(w.stakedEquity))).toBe(true);
      if (open.length === 0) {
        expect([w.exposureRatio, w.perpBias, w.closestLiqCoin]).toEqual([null, null, null]);
      } else {
        expect(w.exposureRatio).toBe(new Big(w.openValue).div(w.perpEquity).round(8, Big.roundHalfUp).toFixed(8));
        const atRisk = open
          .filter((p) => p.liquidationProgress !== null)
          .sort((a, b) => Number(b.liquidationProgress) - Number(a.liquidationProgress) || (a.coin < b.coin ? -1 : 1));
        expect(w.closestLiqCoin).toBe(atRisk[0]?.coin ?? null);
      }
    }
    const cohorts = new Set(wallets.map((w) => w.wallet.sizeCohortId));
    expect(cohorts.size).toBeGreaterThanOrEqual(6);
  });

  it('writes positions with the staging formulas and closed ones on the update grid, before the open one of the coin', () => {
    const grid = (ms: number) => (ms - dataset.startMs) % STATE_INTERVAL_MS === 0 && ms >= dataset.startMs && ms <= SETTINGS.endMs;
    let closed = 0;
    for (const { open, closed: history } of wallets) {
      for (const p of [...open, ...history]) {
        const mark = new Big(p.value).div(p.size);
        if (p.liquidationPrice !== null && p.liquidationPrice !== p.entryPrice) {
          const raw = new Big(p.entryPrice).minus(mark).div(new Big(p.entryPrice).minus(p.liquidationPrice)).round(6, Big.roundHalfUp);
          const clamped = raw.lt(0) ? new Big(0) : raw.gt(1) ? new Big(1) : raw;
          expect(new Big(p.liquidationProgress!).eq(clamped)).toBe(true);
        }
        expect(new Big(p.unrealizedPnl).eq(new Big(p.size).times(mark.minus(p.entryPrice)).times(p.side === 'long' ? 1 : -1))).toBe(true);
        expect(grid(p.createdAtMs) && p.createdAtMs >= p.openTimeMs).toBe(true);
      }
      for (const p of history) {
        closed++;
        expect(
          grid(p.closeTimeMs!) && p.openTimeMs < p.closeTimeMs! && p.createdAtMs < p.closeTimeMs! && p.updatedAtMs === p.closeTimeMs,
        ).toBe(true);
        const reopened = open.find((o) => o.coin === p.coin);
        if (reopened) expect(p.closeTimeMs!).toBeLessThanOrEqual(reopened.openTimeMs);
      }
    }
    expect(closed).toBeGreaterThan(SETTINGS.positions);
    expect(liquidationProgress(100, 90, 80)).toBe(500_000);
    expect(liquidationProgress(100, 110, 80)).toBe(0);
    expect(liquidationProgress(100, 70, 80)).toBe(1_000_000);
    expect(liquidationProgress(100, 90, 100)).toBeNull();
  });

  it('writes COPY lines with a field per column', () => {
    const width = (columns: string) => columns.split(',').length;
    for (const row of lines(walletCopyChunks(dataset))) expect(row).toHaveLength(width(WALLET_COLUMNS));
    for (const row of lines(positionCopyChunks(dataset))) expect(row).toHaveLength(width(POSITION_COLUMNS));
    const history = new SnapshotHistory(dataset);
    const updates = lines(history.stateUpdates(SETTINGS.positions));
    expect(updates).toHaveLength(SETTINGS.days * 96);
    expect(updates.at(-1)![1]).toBe(new Date(SETTINGS.endMs).toISOString());
  });

  it('makes fills in trade pairs with consistent positions, about 2 % of them liquidations', () => {
    const stats = newStats();
    const fills = lines(fillCopyChunks(dataset, stats));
    expect(fills).toHaveLength(SETTINGS.fills);
    expect(stats.fills).toBe(SETTINGS.fills);
    const column = Object.fromEntries(FILL_COLUMNS.split(', ').map((name, i) => [name, i]));
    for (const f of fills) expect(f).toHaveLength(Object.keys(column).length);
    const ends = new Map<string, Big>();
    for (let i = 0; i < fills.length; i += 2) {
      const [taker, maker] = [fills[i]!, fills[i + 1]!];
      expect(taker[column.tid!]).toBe(maker[column.tid!]);
      expect([taker[column.crossed!], maker[column.crossed!]]).toEqual(['t', 'f']);
      expect(taker[column.liquidated_user!]).toBe(maker[column.liquidated_user!]);
      if (taker[column.liquidated_user!] !== '\\N') {
        expect(taker[column.liquidated_user!]).toBe(taker[column.address!]);
        expect([taker[column.is_liquidated_side!], maker[column.is_liquidated_side!]]).toEqual(['t', 'f']);
        expect(taker[column.dir!]).toMatch(/^Close /);
      }
      for (const f of [taker, maker]) {
        const key = `${f[column.address!]} ${f[column.coin!]}`;
        expect(new Big(f[column.start_position!]!).eq(ends.get(key) ?? 0)).toBe(true);
        ends.set(key, new Big(f[column.start_position!]!).plus(f[column.side!] === 'B' ? f[column.sz!]! : `-${f[column.sz!]}`));
        const ms = Date.parse(f[column.time!]!);
        expect(ms >= dataset.startMs && ms <= SETTINGS.endMs).toBe(true);
      }
    }
    expect(stats.liquidationFills / stats.fills).toBeGreaterThan(0.005);
    expect(stats.liquidationFills / stats.fills).toBeLessThan(0.04);
  });
});
