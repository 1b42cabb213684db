import { DataSource } from 'typeorm';
import type { PositionStateRecord, WalletStateRecord } from '#exchange';
import { ExchangeFactsWriter, MarketStateWriter } from '#market';
import { exchangeState, feed, fillsBlock, positionState, startedWriter, walletState, wireFill } from '#testing';
import { type SeededApi } from './seeded-api.js';

// The positions suites' data: stints of four wallets' positions over 16 state updates, and one stored fill.

export const POSITIONS = '/api/external/positions';
export const HISTORY = (coin: string) => `/api/external/coin/${encodeURIComponent(coin)}/open-positions/history`;

// 2026-01-10T00:00:00Z lies on a 2-hour UTC boundary; every time below is minutes after it.
const T0 = Date.UTC(2026, 0, 10);
const MIN = 60_000;
export const at = (minutes: number) => T0 + minutes * MIN;
export const iso = (minutes: number) => new Date(at(minutes)).toISOString();

/**
 * The state updates, in minutes after T0: hourly first (the window cases), then irregular, with gaps
 * longer than 2 hours, one update exactly on a boundary (6:00, 22:00), spanning 30 hours.
 */
export const UPDATES = [0, 60, 120, 180, 240, 255, 350, 360, 370, 570, 780, 1245, 1320, 1565, 1679, 1820];
export const LAST = UPDATES.length - 1;

export const hex40 = (tag: string) => `0x${tag.padStart(40, '0')}`;
// Size cohort by perp equity, pnl cohort by all-time PnL (the API contract's table).
export const A = { address: hex40('a1'), perpEquity: '5000', allTimePnl: '100' }; // Fish (1), Humble Earner (11)
const B = { address: hex40('b2'), perpEquity: '20000', allTimePnl: '50000' }; // Dolphin (2), Consistent Grinder (10)
export const C = { address: hex40('c3'), perpEquity: '100', allTimePnl: '-500' }; // Shrimp (16), Exit Liquidity (12)
export const W = { address: hex40('d4'), perpEquity: '600000', allTimePnl: '2000000' }; // Whale (5), Money Printer (8)
const WALLETS = [A, B, C, W];

/** A stretch of one wallet on one coin and side: shown by the updates from index `from` up to, not including, `until`. */
export interface Stint {
  wallet: (typeof WALLETS)[number];
  coin: string;
  from: number;
  until?: number;
  /** The position as update `i` shows it. */
  state: (i: number) => Partial<PositionStateRecord>;
  /** Worked out by hand from entry, value / |size| (the mark) and liquidation price: (entry - mark) / (entry - liq), clamped to [0, 1], 6 places. */
  progress: number | null;
  /** The opening fill's time, when one is stored (else the open time is the first update showing it). */
  openedByFillAt?: number;
}

export const STINTS = {
  // Long 0.5 from 60000, mark 58000, liquidation 40000: 2000 / 20000 = 0.1. Opened by a fill 10 minutes before T0.
  a1: {
    wallet: A,
    coin: 'BTC',
    from: 0,
    until: 2,
    progress: 0.1,
    openedByFillAt: at(-10),
    state: () => ({
      szi: '0.5',
      entryPx: '60000',
      positionValue: '29000',
      unrealizedPnl: '-1000',
      liquidationPx: '40000',
      leverage: 10,
      marginUsed: '2900',
      fundingSinceOpen: '-2.5',
    }),
  },
  // Short 2 from 3000, mark 3100, liquidation 3500: -100 / -500 = 0.2.
  a2: {
    wallet: A,
    coin: 'ETH',
    from: 0,
    until: 1,
    progress: 0.2,
    state: () => ({
      szi: '-2',
      entryPx: '3000',
      positionValue: '6200',
      unrealizedPnl: '-200',
      liquidationPx: '3500',
      leverage: 5,
      marginUsed: '1240',
      fundingSinceOpen: '1.25',
    }),
  },
  a3: {
    wallet: A,
    coin: 'HYPE',
    from: 2,
    progress: null,
    state: () => ({
      szi: '100',
      entryPx: '25',
      positionValue: '2600',
      unrealizedPnl: '100',
      liquidationPx: null,
      leverageType: 'isolated',
      leverage: 3,
      marginUsed: '866.67',
      fundingSinceOpen: '0',
    }),
  },
  // Short 1 from 61000, mark 60000 (in profit), liquidation 80000: 1000 / -19000 < 0, clamped to 0. Flipped long at update 1.
  b1: {
    wallet: B,
    coin: 'BTC',
    from: 0,
    until: 1,
    progress: 0,
    state: () => ({
      szi: '-1',
      entryPx: '61000',
      positionValue: '60000',
      unrealizedPnl: '1000',
      liquidationPx: '80000',
      leverage: 5,
      marginUsed: '12000',
      fundingSinceOpen: '3',
    }),
  },
  // Long 1.5 from 60500, mark 60000, liquidation 50000: 500 / 10500 = 0.0476190476... -> 0.047619.
  b2: {
    wallet: B,
    coin: 'BTC',
    from: 1,
    progress: 0.047619,
    state: () => ({
      szi: '1.5',
      entryPx: '60500',
      positionValue: '90000',
      unrealizedPnl: '-750',
      liquidationPx: '50000',
      leverage: 5,
      marginUsed: '18000',
      fundingSinceOpen: '-0.75',
    }),
  },
  b3: {
    wallet: B,
    coin: 'ETH',
    from: 3,
    progress: null,
    state: () => ({
      szi: '3',
      entryPx: '3100',
      positionValue: '9300',
      unrealizedPnl: '0',
      liquidationPx: null,
      leverage: 5,
      marginUsed: '1860',
      fundingSinceOpen: '0',
    }),
  },
  // Long 10 from 150, mark 140, liquidation 120: 10 / 30 = 0.333333.
  c1: {
    wallet: C,
    coin: 'SOL',
    from: 0,
    until: 3,
    progress: 0.333333,
    state: () => ({
      szi: '10',
      entryPx: '150',
      positionValue: '1400',
      unrealizedPnl: '-100',
      liquidationPx: '120',
      leverage: 5,
      marginUsed: '280',
      fundingSinceOpen: '-0.5',
    }),
  },
  // Long 10 from 60000, marked up 100 an update (in profit: progress 0); its value changes at every update.
  w1: {
    wallet: W,
    coin: 'BTC',
    from: 0,
    progress: 0,
    state: (i: number) => ({
      szi: '10',
      entryPx: '60000',
      positionValue: `${600000 + 1000 * i}`,
      unrealizedPnl: `${1000 * i}`,
      liquidationPx: '30000',
      leverage: 20,
      marginUsed: '30000',
      fundingSinceOpen: '-12.3456',
    }),
  },
  w2: {
    wallet: W,
    coin: 'xyz:TSLA',
    from: 0,
    progress: null,
    state: () => ({
      szi: '50',
      entryPx: '400',
      positionValue: '20500',
      unrealizedPnl: '500',
      liquidationPx: null,
      leverageType: 'isolated',
      leverage: 2,
      marginUsed: '10250',
      fundingSinceOpen: '0',
    }),
  },
  // Short 20 from 160, mark 155 (in profit), liquidation 200: 5 / -40 < 0, clamped to 0.
  w3: {
    wallet: W,
    coin: 'SOL',
    from: 9,
    until: 11,
    progress: 0,
    state: (i: number) => ({
      szi: '-20',
      entryPx: '160',
      positionValue: `${3100 + 10 * (i - 9)}`,
      unrealizedPnl: '100',
      liquidationPx: '200',
      leverage: 4,
      marginUsed: '775',
      fundingSinceOpen: '0.1',
    }),
  },
} satisfies Record<string, Stint>;
export type Key = keyof typeof STINTS;
export const KEYS = Object.keys(STINTS) as Key[];

export const shownAt = (s: Stint, i: number) => i >= s.from && (s.until === undefined || i < s.until);

function walletsAt(i: number): WalletStateRecord[] {
  return WALLETS.map((w) =>
    walletState(w.address, {
      perpEquity: w.perpEquity,
      allTimePnl: w.allTimePnl,
      positions: Object.values(STINTS)
        .filter((s: Stint) => s.wallet === w && shownAt(s, i))
        .map((s: Stint) => positionState(s.coin, s.state(i))),
    }),
  );
}

export interface PositionBody {
  id: number;
  address: string;
  coin: string;
  dex: string;
  side: 'long' | 'short';
  size: number;
  value: number;
  entryPrice: number;
  unrealizedPnl: number;
  funding: number;
  liquidationPrice: number | null;
  liquidationProgress: number | null;
  leverageType: string;
  leverage: number;
  marginUsed: number;
  openTime: string;
  closeTime: string | null;
  createdAt: string;
  updatedAt: string;
}

/** Every update in turn, after the one stored fill. */
export async function seedPositions(dataSource: DataSource): Promise<void> {
  // A's BTC long opens with a stored fill 10 minutes before the first update that shows it.
  const facts = await startedWriter(dataSource, ExchangeFactsWriter);
  await facts.writeBlocks(
    feed([fillsBlock(1, at(-10), [[A.address, wireFill({ coin: 'BTC', px: '60000', sz: '0.5', side: 'B', time: at(-10), tid: 1 })]])]),
    'node',
  );
  const states = await startedWriter(dataSource, MarketStateWriter);
  for (const [i, minutes] of UPDATES.entries()) await states.apply(exchangeState(100 + i, at(minutes), walletsAt(i)));
}

/** GET with the suite's token and `query`, a field given as an array repeated. */
export function getWithQuery(suite: SeededApi) {
  return (path: string, query: Record<string, string | string[]> = {}) => {
    const params = new URLSearchParams();
    for (const [name, value] of Object.entries(query)) for (const v of [value].flat()) params.append(name, v);
    const qs = params.toString();
    return suite.api.get(qs ? `${path}?${qs}` : path, suite.token);
  };
}
