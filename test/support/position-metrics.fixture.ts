import { expect } from '@jest/globals';
import Big from 'big.js';
import { ExchangeFactsWriter, MarketStateWriter } from '#market';
import { address, exchangeState, feed, fillsBlock, positionState, startedWriter, walletState, wireFill } from '#testing';
import { useSeededApi } from './seeded-api.js';

// The position-metrics suites' data: four wallets' BTC and ETH positions over 12 state updates, and the metrics recomputed from them.

export const BASE = '/api/external/position-metrics';
const MIN = 60_000;
export const HOUR = 60 * MIN;
export const DAY = 24 * HOUR;
/** 2026-11-10 00:00 UTC, a 12-hour boundary; every seeded time is relative to it. */
export const T0 = Date.UTC(2026, 10, 10);
export const iso = (ms: number) => new Date(ms).toISOString();
const num = (x: Big) => Number(x.toString());

type Wallet = 'A' | 'B' | 'C' | 'D';
export type Coin = 'BTC' | 'ETH';
export type Timeframe = 'all' | '24h' | '7d' | '30d';
const WALLETS: Wallet[] = ['A', 'B', 'C', 'D'];
export const ADDRESS: Record<Wallet, string> = { A: address(0xa1), B: address(0xb2), C: address(0xc3), D: address(0xd4) };
const PNL: Record<Wallet, string> = { A: '0', B: '50000', C: '-5000', D: '0' };

/**
 * Cohorts by hand from the contract's table: A Fish (1) and Humble Earner (11); B Dolphin (2) and
 * Consistent Grinder (10); C Exit Liquidity (12), a Fish (1) until its equity grows to 30,000 at the sixth
 * update, a Dolphin (2) after; D Shrimp (16) and Humble Earner (11).
 */
const equity = (wallet: Wallet, k: number): string => ({ A: '1000', B: '20000', C: k < 6 ? '1000' : '30000', D: '100' })[wallet];
const cohorts = (wallet: Wallet, k: number): number[] => ({ A: [1, 11], B: [2, 10], C: k < 6 ? [1, 12] : [2, 12], D: [16, 11] })[wallet];

/**
 * The state updates (k = 1..12), over more than three days of exchange time: positions open, close and
 * flip; A leaves BTC at u3 and comes back at u6; C flips short to long at u4, closes at u5, reopens at u6
 * and flips again at u10; u10 comes after a 31-hour gap. u7 is exactly 24 hours after u1.
 */
export const UPDATES: Array<{ at: number; holdings: Partial<Record<Wallet, Partial<Record<Coin, string>>>> }> = [
  /* u1 */ { at: T0 + HOUR, holdings: { A: { BTC: '0.5' }, B: { BTC: '1' }, C: { BTC: '-0.2' }, D: { BTC: '0.01' } } },
  /* u2 */ { at: T0 + 6 * HOUR, holdings: { A: { BTC: '0.5' }, B: { BTC: '1', ETH: '-2' }, C: { BTC: '-0.2' }, D: { BTC: '0.01' } } },
  /* u3 */ {
    at: T0 + 11 * HOUR + 45 * MIN,
    holdings: { A: { ETH: '1.5' }, B: { BTC: '1', ETH: '-2' }, C: { BTC: '-0.2' }, D: { BTC: '0.01' } },
  },
  /* u4 */ { at: T0 + 12 * HOUR, holdings: { A: { ETH: '1.5' }, B: { BTC: '1', ETH: '-2' }, C: { BTC: '0.3' }, D: { BTC: '0.01' } } },
  /* u5 */ { at: T0 + 12 * HOUR + 15 * MIN, holdings: { B: { BTC: '1', ETH: '-2' }, D: { BTC: '0.01' } } },
  /* u6 */ { at: T0 + 20 * HOUR, holdings: { A: { BTC: '0.1' }, B: { BTC: '1', ETH: '-2' }, C: { BTC: '0.4' }, D: { BTC: '0.01' } } },
  /* u7 */ { at: T0 + 25 * HOUR, holdings: { A: { BTC: '0.1' }, B: { BTC: '1', ETH: '-2' }, C: { BTC: '0.4' }, D: { BTC: '0.01' } } },
  /* u8 */ {
    at: T0 + 25 * HOUR + 15 * MIN,
    holdings: { A: { BTC: '0.1', ETH: '-1' }, B: { BTC: '1', ETH: '-2' }, C: { BTC: '0.4' }, D: { BTC: '0.01' } },
  },
  /* u9 */ {
    at: T0 + 30 * HOUR,
    holdings: { A: { BTC: '0.1', ETH: '-1' }, B: { BTC: '1', ETH: '-2' }, C: { BTC: '0.4' }, D: { BTC: '0.01' } },
  },
  /* u10 */ { at: T0 + 61 * HOUR, holdings: { A: { BTC: '0.1' }, B: { BTC: '1.5', ETH: '-2' }, C: { BTC: '-0.4' }, D: { BTC: '0.01' } } },
  /* u11 */ { at: T0 + 72 * HOUR, holdings: { A: { BTC: '0.1' }, B: { BTC: '1.5' }, C: { BTC: '-0.4' }, D: { BTC: '0.01' } } },
  /* u12 */ { at: T0 + 80 * HOUR, holdings: { A: { BTC: '0.25' }, B: { BTC: '1.5' }, C: { BTC: '-0.4' }, D: { BTC: '0.01' } } },
];
export const at = (k: number) => UPDATES[k - 1]!.at;

/** The fills that opened two positions before they were first seen: B's ETH short and D's old BTC long. */
const FILLS: Array<{ wallet: Wallet; coin: Coin; side: 'A' | 'B'; sz: string; time: number }> = [
  { wallet: 'D', coin: 'BTC', side: 'B', sz: '0.01', time: T0 - 8 * DAY },
  { wallet: 'B', coin: 'ETH', side: 'A', sz: '2', time: T0 + 2 * HOUR },
];

const ENTRY: Record<Coin, string> = { BTC: '90000', ETH: '3000' };
const STEP: Record<Coin, string> = { BTC: '125.25', ETH: '7.5' };
/** The mark at update k: the entry plus k steps, so longs gain and shorts lose. */
const mark = (coin: Coin, k: number) => new Big(ENTRY[coin]).plus(new Big(STEP[coin]).times(k));

interface SeededPosition {
  wallet: Wallet;
  coin: Coin;
  szi: Big;
  value: Big;
  upnl: Big;
  funding: Big;
  openTime: number;
}

interface SeededUpdate {
  k: number;
  at: number;
  positions: SeededPosition[];
}

/** Every position of update k with the values it is seeded with. */
function positionsAt(k: number): Array<Omit<SeededPosition, 'openTime'>> {
  return WALLETS.flatMap((wallet) =>
    Object.entries(UPDATES[k - 1]!.holdings[wallet] ?? {}).map(([coin, szi]) => {
      const size = new Big(szi!);
      return {
        wallet,
        coin: coin as Coin,
        szi: size,
        value: size.abs().times(mark(coin as Coin, k)),
        upnl: size.times(new Big(STEP[coin as Coin]).times(k)),
        funding: new Big('0.35').times(k).times(size).neg(),
      };
    }),
  );
}

/**
 * The positions of each update with their open times, by the rule the contract implies: a position opens
 * when it is first seen on its side, at its opening fill's time when one is stored, else at the update's time.
 */
export function seededUpdates(count: number): SeededUpdate[] {
  const open = new Map<string, { long: boolean; openTime: number }>();
  return UPDATES.slice(0, count).map(({ at: time }, i) => {
    const k = i + 1;
    const current = new Map<string, { long: boolean; openTime: number }>();
    const positions = positionsAt(k).map((p) => {
      const key = `${p.wallet}/${p.coin}`;
      const before = open.get(key);
      const long = p.szi.gt(0);
      const fill = FILLS.filter((f) => f.wallet === p.wallet && f.coin === p.coin && f.time <= time).at(-1);
      const openTime = before && before.long === long ? before.openTime : (fill?.time ?? time);
      current.set(key, { long, openTime });
      return { ...p, openTime };
    });
    open.clear();
    for (const [key, value] of current) open.set(key, value);
    return { k, at: time, positions };
  });
}

const WINDOW: Record<Timeframe, number> = { all: Infinity, '24h': DAY, '7d': 7 * DAY, '30d': 30 * DAY };
const sum = (list: SeededPosition[], of: (p: SeededPosition) => Big) => num(list.reduce((s, p) => s.plus(of(p)), new Big(0)));

/** A cohort's positions in a coin at one update, within the timeframe (opened at or after `at - window`). */
function cohortPositions(u: SeededUpdate, coin: Coin, cohortId: number, timeframe: Timeframe): SeededPosition[] {
  return u.positions.filter(
    (p) => p.coin === coin && cohorts(p.wallet, u.k).includes(cohortId) && (timeframe === 'all' || p.openTime >= u.at - WINDOW[timeframe]),
  );
}

export function expectedMetric(u: SeededUpdate, coin: Coin, cohortId: number, timeframe: Timeframe) {
  const ps = cohortPositions(u, coin, cohortId, timeframe);
  const longs = ps.filter((p) => p.szi.gt(0));
  return {
    createdAt: iso(u.at),
    coin,
    segmentId: cohortId,
    positionCount: ps.length,
    positionCountLong: longs.length,
    totalPositionValue: sum(ps, (p) => p.value),
    totalPositionValueLong: sum(longs, (p) => p.value),
    totalFunding: sum(ps, (p) => p.funding),
    totalUnrealizedPnl: sum(ps, (p) => p.upnl),
    totalPositionSize: sum(ps, (p) => p.szi.abs()),
    totalPositionSizeLong: sum(longs, (p) => p.szi),
  };
}

/** The series rows of route 2 for the picked updates: counts, values, long share by value (null without value), time. */
export function expectedSeriesRows(updates: SeededUpdate[], coin: Coin, cohortId: number, timeframe: Timeframe) {
  return updates.map((u) => {
    const ps = cohortPositions(u, coin, cohortId, timeframe);
    const longs = ps.filter((p) => p.szi.gt(0));
    const total = ps.reduce((s, p) => s.plus(p.value), new Big(0));
    const long = longs.reduce((s, p) => s.plus(p.value), new Big(0));
    return [ps.length, longs.length, num(total), num(long), total.eq(0) ? null : num(long.div(total)), iso(u.at)];
  });
}

export function expectedMarket(u: SeededUpdate) {
  const longs = u.positions.filter((p) => p.szi.gt(0));
  const shorts = u.positions.filter((p) => p.szi.lt(0));
  return {
    id: u.k,
    createdAt: iso(u.at),
    count: u.positions.length,
    countLong: longs.length,
    countShort: shorts.length,
    openInterest: sum(u.positions, (p) => p.value),
    openInterestLong: sum(longs, (p) => p.value),
    openInterestShort: sum(shorts, (p) => p.value),
    perpEquity: num(WALLETS.reduce((s, w) => s.plus(equity(w, u.k)), new Big(0))),
    countInProfit: u.positions.filter((p) => p.upnl.gt(0)).length,
  };
}

export const invalid = (errors: Array<{ field: string; message: string }>) => ({
  status: 'error',
  message: `Invalid parameters: ${[...new Set(errors.map((e) => e.field))].join(', ')}`,
  errors,
});

/** Alters the keys of a genuine cursor and keeps its signature. */
export const tampered = (cursor: string, keys: unknown[]) =>
  `${Buffer.from(JSON.stringify(keys)).toString('base64url')}.${cursor.split('.')[1]}`;

/**
 * The position-metrics suites' set-up: the api with the opening fills and every update of UPDATES applied,
 * the updates as the model sees them, and `applyUpdate` for a suite that adds later ones.
 */
export function usePositionMetricsSuite() {
  let states: MarketStateWriter;
  const suite = useSeededApi({ name: 'position-metrics-suite' }, async (dataSource) => {
    const facts = await startedWriter(dataSource, ExchangeFactsWriter);
    await facts.writeBlocks(
      feed(
        FILLS.map((f, i) =>
          fillsBlock(100 + i, f.time, [
            [ADDRESS[f.wallet], wireFill({ coin: f.coin, px: ENTRY[f.coin], sz: f.sz, side: f.side, time: f.time, tid: 500 + i })],
          ]),
        ),
      ),
      'node',
    );
    states = await startedWriter(dataSource, MarketStateWriter);
    for (const [i, update] of UPDATES.entries()) await applyUpdate(i + 1, update.at, update.holdings);
  });
  const updates = seededUpdates(UPDATES.length);
  const newestFirst = [...updates].reverse();

  async function applyUpdate(k: number, time: number, holdings: Partial<Record<Wallet, Partial<Record<Coin, string>>>>): Promise<void> {
    const wallets = WALLETS.map((w) =>
      walletState(ADDRESS[w], {
        perpEquity: equity(w, k),
        allTimePnl: PNL[w],
        positions: Object.entries(holdings[w] ?? {}).map(([coin, szi]) => {
          const size = new Big(szi!);
          return positionState(coin, {
            szi: szi!,
            entryPx: ENTRY[coin as Coin],
            positionValue: size
              .abs()
              .times(mark(coin as Coin, k))
              .toString(),
            unrealizedPnl: size.times(new Big(STEP[coin as Coin]).times(k)).toString(),
            fundingSinceOpen: new Big('0.35').times(k).times(size).neg().toString(),
          });
        }),
      }),
    );
    const result = await states.apply(exchangeState(1000 + 10 * k, time, wallets));
    expect(result.applied).toBe(true);
  }

  return { suite, updates, newestFirst, applyUpdate };
}
