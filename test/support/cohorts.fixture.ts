import Big from 'big.js';
import { DataSource } from 'typeorm';
import { ExchangeFactsWriter, MarketStateWriter } from '#market';
import { address, exchangeState, feed, fillsBlock, positionState, startedWriter, walletState, wireFill } from '#testing';
import { SPEC_COHORTS as CONTRACT_COHORTS } from '../support/contract-cohorts.js';

// The cohort-summary and heatmap suites' data: nine wallets' open positions, and the figures recomputed from them.

export const HEATMAP = '/api/external/positions/heatmap';
export const summaryPath = (cohortId: number | string) => `/api/external/segments/${cohortId}/summary`;

const T = Date.UTC(2026, 2, 20, 12, 0, 0); // the latest state update's exchange time
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const WINDOW_MS = { '24h': DAY, '7d': 7 * DAY, '30d': 30 * DAY } as const;
export type Window = 'all' | keyof typeof WINDOW_MS;
export const WINDOWS: Window[] = ['all', '24h', '7d', '30d'];

/** the API contract's cohort table, by id. */
export const SPEC_COHORTS: Record<number, object> = Object.fromEntries(CONTRACT_COHORTS.map((c) => [c.id, c]));

// The seeded wallets, with their cohorts worked out by hand from the table above.
interface SeedWallet {
  address: string;
  perpEquity: string;
  allTimePnl: string;
  cohorts: [size: number, pnl: number];
}
interface SeedPosition {
  wallet: SeedWallet;
  coin: string;
  side: 'long' | 'short';
  value: string;
  upnl: string;
  /** Exchange time the position opened: a fill from zero at that time, or T when there is none (first seen then). */
  openTime: number;
  fill: boolean;
}

const W1: SeedWallet = { address: address(0x101), perpEquity: '20000', allTimePnl: '50000', cohorts: [2, 10] };
const W2: SeedWallet = { address: address(0x102), perpEquity: '15000.75', allTimePnl: '-5000', cohorts: [2, 12] };
const W3: SeedWallet = { address: address(0x103), perpEquity: '40000', allTimePnl: '50000', cohorts: [2, 10] };
const W4: SeedWallet = { address: address(0x104), perpEquity: '30000', allTimePnl: '200000', cohorts: [2, 9] };
const W5: SeedWallet = { address: address(0x105), perpEquity: '500', allTimePnl: '-2000000', cohorts: [1, 15] };
const W6: SeedWallet = { address: address(0x106), perpEquity: '-50', allTimePnl: '0', cohorts: [16, 11] };
const W7: SeedWallet = { address: address(0x107), perpEquity: '6000000', allTimePnl: '2000000', cohorts: [7, 8] };
const W8: SeedWallet = { address: address(0x108), perpEquity: '300', allTimePnl: '500', cohorts: [1, 11] };
const W9: SeedWallet = { address: address(0x109), perpEquity: '1000', allTimePnl: '0', cohorts: [1, 11] };
const WALLETS = [W1, W2, W3, W4, W5, W6, W7, W8, W9];

/** The positions open after the latest update. */
const OPEN: SeedPosition[] = [
  { wallet: W1, coin: 'BTC', side: 'long', value: '30000.1', upnl: '1200.25', openTime: T - DAY, fill: true }, // exactly 24 h before
  { wallet: W1, coin: 'ETH', side: 'short', value: '8000.125', upnl: '-300', openTime: T - 10 * DAY, fill: true },
  { wallet: W2, coin: 'BTC', side: 'short', value: '12000.2', upnl: '-50', openTime: T - DAY - 1, fill: true }, // 1 ms too old for 24h
  { wallet: W2, coin: 'SOL', side: 'long', value: '2500.3333', upnl: '10', openTime: T, fill: false },
  { wallet: W3, coin: 'ETH', side: 'long', value: '5000', upnl: '-20', openTime: T - 7 * DAY, fill: true }, // exactly 7 d before
  { wallet: W5, coin: 'BTC', side: 'long', value: '700', upnl: '5', openTime: T - 30 * DAY, fill: true }, // exactly 30 d before
  { wallet: W5, coin: 'DOGE', side: 'short', value: '100.05', upnl: '-1', openTime: T - 31 * DAY, fill: true },
  { wallet: W6, coin: 'DOGE', side: 'long', value: '20', upnl: '3', openTime: T, fill: false },
  { wallet: W7, coin: 'BTC', side: 'long', value: '1000000', upnl: '-100', openTime: T - HOUR, fill: true },
  { wallet: W8, coin: 'ETH', side: 'long', value: '50', upnl: '1', openTime: T - 7 * DAY - 1, fill: true }, // 1 ms too old for 7d
  { wallet: W9, coin: 'ARB', side: 'long', value: '250', upnl: '2', openTime: T, fill: false },
  { wallet: W9, coin: 'AVAX', side: 'short', value: '250', upnl: '-2.5', openTime: T, fill: false },
  { wallet: W9, coin: 'xyz:NVDA', side: 'long', value: '250', upnl: '0', openTime: T, fill: false },
];

const szi = (p: Pick<SeedPosition, 'side'>) => (p.side === 'long' ? '1' : '-1');
const positionOf = (p: SeedPosition) => positionState(p.coin, { szi: szi(p), positionValue: p.value, unrealizedPnl: p.upnl });

export async function seed(dataSource: DataSource): Promise<void> {
  // Fills from zero set the open times (MarketStateWriter takes the newest such fill at or before the state).
  const fills = OPEN.filter((p) => p.fill).sort((a, b) => a.openTime - b.openTime);
  const blocks = fills.map((p, i) =>
    fillsBlock(1000 + i, p.openTime, [
      [
        p.wallet.address,
        wireFill({ coin: p.coin, px: '100', sz: '1', side: p.side === 'long' ? 'B' : 'A', time: p.openTime, tid: 5000 + i }),
      ],
    ]),
  );
  await (await startedWriter(dataSource, ExchangeFactsWriter)).writeBlocks(feed(blocks), 'node');

  const states = await startedWriter(dataSource, MarketStateWriter);
  const wallet = (w: SeedWallet, positions: SeedPosition[]) =>
    walletState(w.address, { perpEquity: w.perpEquity, allTimePnl: w.allTimePnl, positions: positions.map(positionOf) });
  // Two hours earlier W3 also held xyz:TSLA (first seen then, so "opened" 2 h before T): it closes at T and
  // must count nowhere, though it is the most recent position W3 ever opened.
  const tsla: SeedPosition = {
    wallet: W3,
    coin: 'xyz:TSLA',
    side: 'long',
    value: '90000',
    upnl: '500',
    openTime: T - 2 * HOUR,
    fill: false,
  };
  const w3Eth = OPEN.find((p) => p.wallet === W3 && p.coin === 'ETH')!;
  await states.apply(exchangeState(100, T - 2 * HOUR, [wallet(W3, [tsla, { ...w3Eth, value: '4000', upnl: '0' }])]));
  await states.apply(
    exchangeState(
      200,
      T,
      WALLETS.map((w) =>
        wallet(
          w,
          OPEN.filter((p) => p.wallet === w),
        ),
      ),
    ),
  );
}

// ---- the expected figures, recomputed from the seed with big.js ----

export const sum = (values: string[]): Big => values.reduce((total, v) => total.plus(v), new Big(0));
export const num = (value: Big): number => Number(value.toString());
const ratio = (a: Big, b: Big): number | null => (b.gt(0) ? num(a.div(b).round(8, Big.roundHalfUp)) : null);
const openedWithin = (p: SeedPosition, window: Window) => window === 'all' || p.openTime >= T - WINDOW_MS[window];
const inCohort = (w: SeedWallet, id: number) => w.cohorts.includes(id);

export function expectedSummary(id: number, window: Window) {
  const traders = WALLETS.filter((w) => inCohort(w, id) && OPEN.some((p) => p.wallet === w && openedWithin(p, window)));
  const positions = OPEN.filter((p) => traders.includes(p.wallet));
  const values = (side?: 'long' | 'short') => sum(positions.filter((p) => !side || p.side === side).map((p) => p.value));
  const [total, long, short] = [values(), values('long'), values('short')];
  const equity = sum(traders.map((w) => w.perpEquity));
  const inProfit = traders.filter((w) => sum(positions.filter((p) => p.wallet === w).map((p) => p.upnl)).gt(0));
  const perpBias = ratio(long.minus(short), equity);
  const exposureRatio = ratio(total, equity);
  return {
    segment: SPEC_COHORTS[id],
    openPerpsSummary: {
      perpBias,
      exposureRatio,
      countOpenPositions: positions.length,
      countTradersInPosition: traders.length,
      countTradersInProfit: inProfit.length,
      totalValue: num(total),
      totalLongValue: num(long),
      totalActivePerpEquity: num(equity),
      bySide: [
        { side: 'long', countOpenPositions: positions.filter((p) => p.side === 'long').length, totalValue: num(long) },
        { side: 'short', countOpenPositions: positions.filter((p) => p.side === 'short').length, totalValue: num(short) },
      ],
    },
    summary: {
      segmentId: id,
      countTradersInPosition: traders.length,
      perpBias,
      positionValue: num(total),
      positionLongValue: num(long),
      positionShortValue: num(short),
      exposureRatio,
      activePerpEquity: num(equity),
    },
  };
}

function figures(positions: SeedPosition[]) {
  const value = (side?: 'long' | 'short') => sum(positions.filter((p) => !side || p.side === side).map((p) => p.value));
  const count = (side?: 'long' | 'short') => positions.filter((p) => !side || p.side === side).length;
  return {
    total: value(),
    body: {
      totalValue: num(value()),
      totalLongValue: num(value('long')),
      totalShortValue: num(value('short')),
      count: count(),
      countLong: count('long'),
      countShort: count('short'),
    },
    long: value('long'),
  };
}

export function expectedHeatmap(window: Window) {
  const open = OPEN.filter((p) => openedWithin(p, window));
  const coins = [...new Set(open.map((p) => p.coin))].map((coin) => ({ coin, ...figures(open.filter((p) => p.coin === coin)) }));
  coins.sort((a, b) => b.total.cmp(a.total) || (a.coin < b.coin ? -1 : a.coin > b.coin ? 1 : 0));
  return {
    heatmap: coins.map(({ coin, body }) => ({
      coin,
      ...body,
      segments: Array.from({ length: 16 }, (_, i) => i + 1).map((cohortId) => {
        const cell = figures(open.filter((p) => p.coin === coin && inCohort(p.wallet, cohortId)));
        return {
          segmentId: cohortId,
          coin,
          ...cell.body,
          bias: cell.total.eq(0) ? null : num(cell.long.div(cell.total).round(8, Big.roundHalfUp)),
        };
      }),
    })),
  };
}

export const ZERO_SUMMARY = (id: number) => ({
  segment: SPEC_COHORTS[id],
  openPerpsSummary: {
    perpBias: null,
    exposureRatio: null,
    countOpenPositions: 0,
    countTradersInPosition: 0,
    countTradersInProfit: 0,
    totalValue: 0,
    totalLongValue: 0,
    totalActivePerpEquity: 0,
    bySide: [
      { side: 'long', countOpenPositions: 0, totalValue: 0 },
      { side: 'short', countOpenPositions: 0, totalValue: 0 },
    ],
  },
  summary: {
    segmentId: id,
    countTradersInPosition: 0,
    perpBias: null,
    positionValue: 0,
    positionLongValue: 0,
    positionShortValue: 0,
    exposureRatio: null,
    activePerpEquity: 0,
  },
});

export const badRequest = (errors: Array<{ field: string; message: string }>) => ({
  status: 'error',
  message: `Invalid parameters: ${[...new Set(errors.map((e) => e.field))].join(', ')}`,
  errors,
});
