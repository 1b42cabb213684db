import { expect } from '@jest/globals';
import Big from 'big.js';
import { DataSource } from 'typeorm';
import type { PositionStateRecord } from '#exchange';
import { MarketStateWriter } from '#market';
import { address, exchangeState, positionState, startedWriter, walletState } from '#testing';
import { useSeededApi } from './seeded-api.js';

// The wallets suites' data: 36 wallets over three state updates, and the profiles and orders the list must give.

export const WALLETS = '/api/external/wallets';
const HYPE_PX = '40';
/** The three state updates: each shows the wallets of its group and of the groups before. */
const UPDATE_TIMES = [Date.UTC(2026, 5, 1, 0, 0), Date.UTC(2026, 5, 1, 0, 15), Date.UTC(2026, 5, 1, 0, 30)];

// ---- the seed: 36 wallets whose every sort field takes a few values only, so every sort has ties ----

interface SeedPosition {
  coin: string;
  szi: string;
  entryPx: string;
  positionValue: string;
  unrealizedPnl: string;
  liquidationPx: string | null;
  /** Worked out by hand: (entry - value / |szi|) / (entry - liquidation), clamped to [0, 1]; null without a liquidation price. */
  progress: string | null;
}

// Long 2 BTC from 100 at a mark of 90 (value 180), liquidation 50: 10 / 50 = 0.2.
export const BTC_NEAR: SeedPosition = {
  coin: 'BTC',
  szi: '2',
  entryPx: '100',
  positionValue: '180',
  unrealizedPnl: '-20',
  liquidationPx: '50',
  progress: '0.2',
};
// Long 2 BTC in profit (mark 110): -10 / 50, clamped to 0.
const BTC_SAFE: SeedPosition = {
  coin: 'BTC',
  szi: '2',
  entryPx: '100',
  positionValue: '220',
  unrealizedPnl: '20',
  liquidationPx: '50',
  progress: '0',
};
const BTC_NO_LIQ: SeedPosition = {
  coin: 'BTC',
  szi: '1',
  entryPx: '100',
  positionValue: '100',
  unrealizedPnl: '0',
  liquidationPx: null,
  progress: null,
};
// Short 4 ETH from 50 at 55 (value 220), liquidation 60: -5 / -10 = 0.5.
export const ETH_HALF: SeedPosition = {
  coin: 'ETH',
  szi: '-4',
  entryPx: '50',
  positionValue: '220',
  unrealizedPnl: '-20',
  liquidationPx: '60',
  progress: '0.5',
};
// Short 4 ETH from 50 at 52 (value 208), liquidation 60: -2 / -10 = 0.2, as BTC_NEAR: the tie goes to BTC.
export const ETH_FIFTH: SeedPosition = {
  coin: 'ETH',
  szi: '-4',
  entryPx: '50',
  positionValue: '208',
  unrealizedPnl: '-8',
  liquidationPx: '60',
  progress: '0.2',
};
const BTC_VARIANTS = [BTC_NEAR, BTC_SAFE, BTC_NO_LIQ];
const ETH_VARIANTS = [ETH_HALF, ETH_FIFTH];

export interface SeedWallet {
  address: string;
  /** Index of the first update that shows it. */
  group: number;
  perpEquity: string;
  allTimePnl: string;
  spotHype: string;
  stakedHype: string;
  positions: SeedPosition[];
}

// '1000' and '1000.000' are the same amount: a tie too. 0 and -50 leave the ratios null even with positions.
const EQUITIES = ['1000', '250', '0', '-50', '20000.5', '1000.000'];
const PNLS = ['0', '-500', '150000', '12.25', '-2000000'];

/** Open positions of wallet i: none, BTC, or BTC and ETH (periods prime to the others', so the fields mix). */
const POSITION_COUNTS = [0, 1, 2, 1, 0, 2, 1];
function positionsOf(i: number): SeedPosition[] {
  const btc = BTC_VARIANTS[i % 3 === 0 ? (i >> 1) % 3 : (i + (i >> 3)) % 3]!;
  const count = POSITION_COUNTS[i % POSITION_COUNTS.length]!;
  return count === 0 ? [] : count === 1 ? [btc] : [btc, ETH_VARIANTS[(i >> 1) % 2]!];
}

export const SEED: SeedWallet[] = Array.from({ length: 36 }, (_, i) => ({
  // Distinct addresses in an order unrelated to i.
  address: address(((i * 37) % 101) + 0x100),
  group: Math.floor(i / 12),
  perpEquity: EQUITIES[i % EQUITIES.length]!,
  allTimePnl: PNLS[i % PNLS.length]!,
  spotHype: i % 4 === 0 ? '10' : '0',
  stakedHype: i % 8 === 1 ? '2.5' : '0',
  positions: positionsOf(i),
}));

const positionOf = (p: SeedPosition): PositionStateRecord =>
  positionState(p.coin, {
    szi: p.szi,
    entryPx: p.entryPx,
    positionValue: p.positionValue,
    unrealizedPnl: p.unrealizedPnl,
    liquidationPx: p.liquidationPx,
  });

export async function seed(dataSource: DataSource): Promise<void> {
  const states = await startedWriter(dataSource, MarketStateWriter);
  for (const [height, time] of UPDATE_TIMES.entries()) {
    const shown = SEED.filter((w) => w.group <= height);
    await states.apply(
      exchangeState(
        height + 1,
        time,
        shown.map((w) =>
          walletState(w.address, {
            perpEquity: w.perpEquity,
            allTimePnl: w.allTimePnl,
            spotHype: w.spotHype,
            stakedHype: w.stakedHype,
            positions: w.positions.map(positionOf),
          }),
        ),
        HYPE_PX,
      ),
    );
  }
}

// ---- the expected profiles, worked out from the seed with big.js and the API contract's cohort table ----

/** [id, lower bound (inclusive), upper bound (exclusive)], from the API contract's table. */
export const SIZE_COHORTS: Array<[number, number | null, number | null]> = [
  [16, 0, 250],
  [1, 250, 10000],
  [2, 10000, 50000],
  [3, 50000, 100000],
  [4, 100000, 500000],
  [5, 500000, 1000000],
  [6, 1000000, 5000000],
  [7, 5000000, null],
];
export const PNL_COHORTS: Array<[number, number | null, number | null]> = [
  [8, 1000000, null],
  [9, 100000, 1000000],
  [10, 10000, 100000],
  [11, 0, 10000],
  [12, -10000, 0],
  [13, -100000, -10000],
  [14, -1000000, -100000],
  [15, null, -1000000],
];
export const cohortOf = (table: typeof SIZE_COHORTS, value: string): number =>
  table.find(([, min, max]) => (min === null || new Big(value).gte(min)) && (max === null || new Big(value).lt(max)))?.[0] ?? 16; // a negative perp equity: Shrimp

const sum = (values: string[]): Big => values.reduce((total, v) => total.plus(v), new Big(0));
const num = (value: Big): number => Number(value.toString());
const round8 = (value: Big): number => num(value.round(8, Big.roundHalfUp));

interface Expected {
  profile: Record<string, unknown>;
  keys: Record<string, Big | number | string | null>;
}

function expectedOf(w: SeedWallet): Expected {
  const open = sum(w.positions.map((p) => p.positionValue));
  const long = sum(w.positions.filter((p) => !p.szi.startsWith('-')).map((p) => p.positionValue));
  const short = open.minus(long);
  const equity = new Big(w.perpEquity);
  const hasRatios = equity.gt(0) && w.positions.length > 0;
  const total = equity.plus(new Big(w.spotHype).plus(w.stakedHype).times(HYPE_PX));
  const withLiq = w.positions.filter((p) => p.progress !== null);
  // The highest progress; between equal ones the first coin.
  const closest = [...withLiq].sort((a, b) => new Big(b.progress!).cmp(a.progress!) || (a.coin < b.coin ? -1 : 1))[0];
  const earliest = UPDATE_TIMES[w.group]!;
  const perpBias = hasRatios ? long.minus(short).div(equity) : null;
  const exposureRatio = hasRatios ? open.div(equity) : null;
  return {
    profile: {
      xUserId: null,
      displayName: null,
      emoji: null,
      verified: false,
      segments: [cohortOf(SIZE_COHORTS, w.perpEquity), cohortOf(PNL_COHORTS, w.allTimePnl)],
      address: w.address,
      favoriteCount: 0,
      totalEquity: num(total),
      earliestActivityAt: new Date(earliest).toISOString(),
      perpPnl: num(new Big(w.allTimePnl)),
      perpEquity: num(equity),
      exposureRatio: exposureRatio && round8(exposureRatio),
      perpBias: perpBias && round8(perpBias),
      openValue: num(open),
      sumUpnl: num(sum(w.positions.map((p) => p.unrealizedPnl))),
      vault: null,
      closestLiq: { coin: closest?.coin ?? null, progress: closest ? num(new Big(closest.progress!)) : null },
    },
    keys: {
      address: w.address,
      totalEquity: total,
      earliestActivityAt: earliest,
      perpPnl: new Big(w.allTimePnl),
      perpEquity: equity,
      perpBias: perpBias && perpBias.round(8, Big.roundHalfUp),
      openValue: open,
      sumUpnl: sum(w.positions.map((p) => p.unrealizedPnl)),
      closestLiqProgress: closest ? new Big(closest.progress!) : null,
      countOpenPositions: w.positions.length,
      exposureRatio: exposureRatio && exposureRatio.round(8, Big.roundHalfUp),
    },
  };
}

export const EXPECTED = SEED.map((w) => ({ seed: w, ...expectedOf(w) }));
export const ORDER_FIELDS = [
  'address',
  'totalEquity',
  'earliestActivityAt',
  'perpPnl',
  'perpEquity',
  'perpBias',
  'openValue',
  'sumUpnl',
  'closestLiqProgress',
  'countOpenPositions',
  'exposureRatio',
];

function compareKeys(a: Big | number | string, b: Big | number | string): number {
  if (a instanceof Big) return a.cmp(b as Big);
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The order the API contract asks for: the field, then the address, both in `order`; nulls last either way. */
export function expectedList(orderBy: string, order: 'asc' | 'desc', keep: (w: SeedWallet) => boolean = () => true) {
  const sign = order === 'asc' ? 1 : -1;
  return EXPECTED.filter((e) => keep(e.seed))
    .sort((x, y) => {
      const [a, b] = [x.keys[orderBy]!, y.keys[orderBy]!];
      if (a === null || b === null) {
        if (a !== b) return a === null ? 1 : -1;
      } else if (compareKeys(a, b) !== 0) {
        return sign * compareKeys(a, b);
      }
      return sign * compareKeys(x.seed.address, y.seed.address);
    })
    .map((e) => e.profile);
}

/** Values a careless or hostile caller sends. */
export const HOSTILE = [
  '',
  ' ',
  '0',
  '-1',
  '1',
  '16',
  '17',
  '500',
  '501',
  '2.5',
  '1e309',
  'NaN',
  'Infinity',
  'null',
  'true',
  'false',
  '[]',
  '{}',
  'asc',
  'DESC',
  'totalEquity',
  '4,5',
  '4,,5',
  '4, 5',
  `0x${'a'.repeat(40)}`,
  `0x${'A'.repeat(40)}`,
  "'; DROP TABLE wallets; --",
  '%00',
  '\u0000',
  '9'.repeat(400),
  '🐋',
];

export const badRequest = (field: string, message: string) => ({
  status: 'error',
  message: `Invalid parameters: ${field}`,
  errors: [{ field, message }],
});

/** The wallets suites' set-up: the api (seeded by a suite's own beforeAll), a GET of the list and a walk over its pages. */
export function useWalletsSuite() {
  const suite = useSeededApi({ name: 'wallets-suite' });
  const get = (query = '') => suite.api.get(`${WALLETS}${query}`, suite.token);

  /** Every page of `query` at `limit` wallets a page, checking each page's count and size. */
  async function walk(query: string, limit: number) {
    const items: Array<{ address: string }> = [];
    let totalCount = 0;
    for (let offset = 0; offset === 0 || offset < totalCount; offset += limit) {
      const res = await get(`?${query}${query ? '&' : ''}offset=${offset}&limit=${limit}`);
      expect([query, offset, res.status]).toEqual([query, offset, 200]);
      if (offset === 0) totalCount = res.body.totalCount;
      expect(res.body.totalCount).toBe(totalCount);
      expect(res.body.items).toHaveLength(Math.min(limit, totalCount - offset));
      items.push(...res.body.items);
    }
    return { totalCount, items };
  }

  return { suite, get, walk };
}
