import { expect } from '@jest/globals';
import Big from 'big.js';
import { DataSource } from 'typeorm';
import type { PositionStateRecord } from '#exchange';
import { MarketStateWriter } from '#market';
import { address, exchangeState, positionState, startedWriter, walletState } from '#testing';

// The HYPE holders suites' data: hand-made and bulk wallets' HYPE over state updates of more than 30 days, and the list they must give.

export const HOLDERS = '/api/external/hype/holders';

const MIN = 60_000;
const HOUR = 60 * MIN;
export const DAY = 24 * HOUR;
export const iso = (ms: number) => new Date(ms).toISOString();

// The latest state update is the exchange "now"; updates span 35 days, with one exactly 7 days and one
// exactly 24 hours before it, and others just either side. Update 2 had no HYPE price.
const LAST = Date.UTC(2026, 2, 15, 12);
export const UPDATES = [
  -35 * DAY,
  -20 * DAY,
  -8 * DAY,
  -7 * DAY,
  -7 * DAY + 15 * MIN,
  -2 * DAY,
  -DAY - 15 * MIN,
  -DAY,
  -DAY + 15 * MIN,
  -6 * HOUR,
  0,
].map((d) => LAST + d);
export const K = UPDATES.length;
const PX = (k: number): string | null => (k === 2 ? null : new Big(30).plus(new Big(k).times('1.25')).toFixed());
const px = (k: number) => new Big(PX(k) ?? 0);

export const SUPPLY = '1234567.5';

interface Wallet {
  address: string;
  first: number;
  /** HYPE [spot, staked] at update k (k >= first). */
  hype: (k: number) => [string, string];
  perpEquity: string;
  allTimePnl?: string;
  positions?: PositionStateRecord[];
}

// Hand-made wallets: H1 holds the same all along (one history row), H2 changes at updates 2 and 5, H3
// only stakes, H4 buys in the last 24 hours, H5 sells everything at the last update (no longer a
// holder), H6 never holds, H7 sells out at update 3 (exactly 7 days back) and buys again at update 8.
export const H = (n: number) => address(0xe0 + n);
const HAND: Wallet[] = [
  {
    address: H(1),
    first: 0,
    hype: () => ['1000', '0'],
    perpEquity: '360',
    allTimePnl: '1500',
    // Long 1 from 100, mark 90, liquidation 60: progress (100 - 90) / (100 - 60) = 0.25.
    positions: [positionState('BTC', { szi: '1', entryPx: '100', positionValue: '90', unrealizedPnl: '-10', liquidationPx: '60' })],
  },
  { address: H(2), first: 0, hype: (k) => [k < 2 ? '500' : k < 5 ? '800' : '650.5', '200'], perpEquity: '20000' },
  { address: H(3), first: 1, hype: () => ['0', '3000'], perpEquity: '50' },
  { address: H(4), first: 0, hype: (k) => [k < 9 ? '0' : '42', '0'], perpEquity: '1000' },
  { address: H(5), first: 0, hype: (k) => [k < 10 ? '77' : '0', '0'], perpEquity: '1000' },
  { address: H(6), first: 0, hype: () => ['0', '0'], perpEquity: '1000' },
  { address: H(7), first: 0, hype: (k) => [k < 3 ? '10' : k < 8 ? '0' : '5', '0'], perpEquity: '1000' },
];

// 510 more, in triples with equal HYPE (i, i + 200, i + 400), every 50th with none, first seen at
// update 0, 3, 4 or 8, some changing at updates 5 and 9.
const BULK: Wallet[] = Array.from({ length: 510 }, (_, i) => {
  const j = i % 200;
  const none = i % 50 === 49;
  return {
    address: address(0xb0000 + i),
    first: [0, 3, 4, 8][i % 4]!,
    perpEquity: `${1000 + i}`,
    hype: (k: number): [string, string] => {
      if (none) return ['0', '0'];
      let spot = new Big(j).times(10).plus('0.5');
      if (k >= 5 && j % 3 === 0) spot = spot.plus(50);
      if (k >= 9 && j % 5 === 0) spot = spot.plus('7.25');
      return [spot.toFixed(), j % 7 === 0 ? '25' : '0'];
    },
  };
});
export const WALLETS = [...HAND, ...BULK];

type Field = 'totalAmount' | 'spotAmount' | 'stakedAmount' | 'totalAmountUsd' | 'accountValue';

// Size cohorts by perp equity, pnl cohorts by all-time PnL: the API contract's table.
const SIZE_BOUNDS: Array<[number, number]> = [
  [16, 250],
  [1, 10_000],
  [2, 50_000],
  [3, 100_000],
  [4, 500_000],
  [5, 1_000_000],
  [6, 5_000_000],
  [7, Infinity],
];
const PNL_BOUNDS: Array<[number, number]> = [
  [15, -1_000_000],
  [14, -100_000],
  [13, -10_000],
  [12, 0],
  [11, 10_000],
  [10, 100_000],
  [9, 1_000_000],
  [8, Infinity],
];
const cohort = (bounds: Array<[number, number]>, v: Big) => bounds.find(([, max]) => max === Infinity || v.lt(max))![0];
const num = (b: Big.BigSource) => Number(new Big(b).toFixed());

/** The balance rows holder_history should hold: the first non-zero balance, then every change. */
function historyRows(w: Wallet): Array<{ k: number; spot: Big; staked: Big }> {
  const rows: Array<{ k: number; spot: Big; staked: Big }> = [];
  let previous: [string, string] = ['0', '0'];
  for (let k = w.first; k < K; k++) {
    const [spot, staked] = w.hype(k);
    if (!new Big(spot).eq(previous[0]) || !new Big(staked).eq(previous[1])) rows.push({ k, spot: new Big(spot), staked: new Big(staked) });
    previous = [spot, staked];
  }
  return rows;
}

function historyAt(w: Wallet, at: number) {
  const row = historyRows(w)
    .filter((r) => UPDATES[r.k]! <= at)
    .pop();
  if (!row) return null;
  return {
    id: `${w.address}:${UPDATES[row.k]}`,
    address: w.address,
    spotAmount: num(row.spot),
    spotAmountUsd: num(row.spot.times(px(row.k))),
    stakedAmount: num(row.staked),
    stakedAmountUsd: num(row.staked.times(px(row.k))),
    totalAmount: num(row.spot.plus(row.staked)),
    totalAmountUsd: num(row.spot.plus(row.staked).times(px(row.k))),
    createdAt: iso(UPDATES[row.k]!),
  };
}

interface Holder {
  address: string;
  values: Record<Field, Big>;
  entry: Record<string, unknown>;
}

/** Every holder as the route should show it, rank left to fill in. */
function holders(): Holder[] {
  return WALLETS.filter((w) => {
    const [spot, staked] = w.hype(K - 1);
    return new Big(spot).plus(staked).gt(0);
  }).map((w) => {
    const [spotText, stakedText] = w.hype(K - 1);
    const spot = new Big(spotText);
    const staked = new Big(stakedText);
    const total = spot.plus(staked);
    const equity = new Big(w.perpEquity);
    const open = w.positions ?? [];
    const openValue = open.reduce((s, p) => s.plus(p.positionValue), new Big(0));
    const ratio = open.length ? num(openValue.div(equity).round(8, Big.roundHalfUp)) : null;
    const values: Record<Field, Big> = {
      totalAmount: total,
      spotAmount: spot,
      stakedAmount: staked,
      totalAmountUsd: total.times(px(K - 1)),
      accountValue: equity,
    };
    return {
      address: w.address,
      values,
      entry: {
        address: w.address,
        spotAmount: num(spot),
        spotAmountUsd: num(spot.times(px(K - 1))),
        stakedAmount: num(staked),
        stakedAmountUsd: num(staked.times(px(K - 1))),
        totalAmount: num(total),
        totalAmountUsd: num(total.times(px(K - 1))),
        earliestActivityAt: iso(UPDATES[w.first]!),
        accountValue: num(equity),
        percentOfCirculatingSupply: num(total.times(100).div(SUPPLY).round(8, Big.roundHalfUp)),
        wallet: {
          xUserId: null,
          displayName: null,
          emoji: null,
          verified: false,
          segments: [cohort(SIZE_BOUNDS, equity), cohort(PNL_BOUNDS, new Big(w.allTimePnl ?? 0))],
          address: w.address,
          favoriteCount: 0,
          totalEquity: num(equity.plus(total.times(px(K - 1)))),
          earliestActivityAt: iso(UPDATES[w.first]!),
          perpPnl: num(w.allTimePnl ?? 0),
          perpEquity: num(equity),
          exposureRatio: ratio,
          perpBias: ratio,
          openValue: num(openValue),
          sumUpnl: num(open.reduce((s, p) => s.plus(p.unrealizedPnl), new Big(0))),
          vault: null,
          closestLiq: open.length ? { coin: 'BTC', progress: 0.25 } : { coin: null, progress: null },
          mid: null,
          tidewatchId: null,
        },
        history: { '24h': historyAt(w, LAST - DAY), '7d': historyAt(w, LAST - 7 * DAY) },
      },
    };
  });
}
export const HOLDERS_EXPECTED = holders();

/** All holders for one request: ranked by rankBy in rankOrder, ordered by orderBy in order, ties by address. */
export function expected(
  order: 'asc' | 'desc' = 'desc',
  orderBy: Field = 'totalAmount',
  rankBy: Field = 'totalAmount',
  rankOrder: 'asc' | 'desc' = 'desc',
) {
  const byAddress = (a: Holder, b: Holder) => (a.address < b.address ? -1 : 1);
  const rankSign = rankOrder === 'desc' ? -1 : 1;
  const ranks = new Map(
    [...HOLDERS_EXPECTED]
      .sort((a, b) => rankSign * a.values[rankBy].cmp(b.values[rankBy]) || byAddress(a, b))
      .map((h, r) => [h.address, r + 1]),
  );
  const sign = order === 'desc' ? -1 : 1;
  return [...HOLDERS_EXPECTED]
    .sort((a, b) => sign * a.values[orderBy].cmp(b.values[orderBy]) || byAddress(a, b))
    .map((h) => ({ ...h.entry, rank: ranks.get(h.address) }));
}

export const badRequest = (field: string, message: string) => ({
  status: 'error',
  message: `Invalid parameters: ${field}`,
  errors: [{ field, message }],
});

/** Every state update in turn, each wallet from its first one on. */
export async function seedHolders(dataSource: DataSource): Promise<void> {
  const states = await startedWriter(dataSource, MarketStateWriter);
  for (let k = 0; k < K; k++) {
    const update = WALLETS.filter((w) => k >= w.first).map((w) => {
      const [spotHype, stakedHype] = w.hype(k);
      return walletState(w.address, {
        perpEquity: w.perpEquity,
        allTimePnl: w.allTimePnl ?? '0',
        spotHype,
        stakedHype,
        positions: w.positions ?? [],
      });
    });
    expect((await states.apply(exchangeState(200 + k, UPDATES[k]!, update, PX(k)))).applied).toBe(true);
  }
}
