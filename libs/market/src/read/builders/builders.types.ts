import type { BuilderTimeframe, PercentileGroup } from './builder-timeframes.js';

// Money and volume are exact decimal strings; times are epoch ms; builder and wallet addresses lower-case.

/** One builder over a timeframe (the API contract "Builder row"); the *Prev figures are null for `all`. */
export interface BuilderRow {
  builder: string;
  /** Sum of builder fees. */
  revenue: string;
  /** Notional (px * sz) of the fills routed through the builder. */
  volume: string;
  /** Distinct wallets with such fills. */
  users: number;
  revenuePrev: string | null;
  volumePrev: string | null;
  usersPrev: number | null;
  /** The builder's first fill ever seen. */
  firstFillTime: number;
  /** All-time builder fees / routed notional (8 places): the builder's fee rate, whatever the timeframe; null without notional. */
  usageFee: string | null;
}

export interface BuilderTotals {
  builder: string;
  firstFillTime: number;
  lastFillTime: number;
  revenue: string;
  volume: string;
  fills: number;
  /** As BuilderRow.usageFee. */
  usageFee: string | null;
}

/** One hour or UTC day of a builder's activity; buckets without fills are present with zeros. */
export interface BuilderActivityPoint {
  time: number;
  revenue: string;
  volume: string;
  users: number;
}

export interface BuilderCoinVolume {
  coin: string;
  volume: string;
  wallets: number;
}

/**
 * Wallets ranked by volume (ties by address) and cut at 1, 5, 10, 25 and 50 % of the count, rounded up
 * so the top group is never empty. A group covers volumes from `minVolume` (its smallest wallet) up to
 * the next group's `minVolume`, which is its `maxVolume`; the top group's is null (open-ended).
 */
export interface BuilderUserVolumeGroup {
  group: PercentileGroup;
  wallets: number;
  volume: string;
  minVolume: string;
  maxVolume: string | null;
}

export interface BuilderBiggestDay {
  /** UTC day start. */
  date: number;
  revenue: string;
}

// The route bodies (the API contract's builder row and profile): JSON numbers, ISO times.

/** One row of `GET /builders/list/timeframe/{timeframe}`. */
export interface BuilderListEntry {
  /** The builder's referral code: not in the exchange data the service reads, so null. */
  refCode: string | null;
  address: string;
  revenue: number;
  /** The builder's first fill ever seen (ISO). */
  timeJoined: string;
  /** When the service's record of the builder begins: its first fill, as timeJoined. */
  createdAt: string;
  usageFee: number | null;
  users: number;
  volume: number;
  /** Null for `all`, which has no previous period. */
  revenuePrev: number | null;
  volumePrev: number | null;
  usersPrev: number | null;
}

/** A time-series table of the API contract. */
export interface SeriesTable<Row extends unknown[]> {
  columns: string[];
  data: Row[];
}

export interface BuilderRevenueMilestone {
  revenue: number;
  label: string;
  done: boolean;
  /** The time of the fill that took the cumulative revenue to the milestone (ISO); null until reached. */
  date: string | null;
}

/** `GET /builders/{builder}/profile`; fields the exchange data cannot tell (names, X account, url) are null. */
export interface BuilderProfile {
  info: {
    address: string;
    code: string | null;
    name: string | null;
    url: string | null;
    xUrl: string | null;
    xUserId: string | null;
    xUser: null;
    firstActivityAt: string;
    revenue: number;
  };
  hyperliquidVolume24h: number;
  fee: number | null;
  biggestDay: { revenue: number; date: string };
  revenueMilestones: BuilderRevenueMilestone[];
  analytics: Record<'24h' | '7d' | '30d' | 'all', SeriesTable<[revenue: number, users: number, timestamp: string]>>;
  coinVolumeDistribution: Record<
    BuilderTimeframe,
    SeriesTable<[coin: string, volume: number, numWallets: number, exchangeType: 'Perp' | 'Spot']>
  >;
  userVolumeDistribution: Record<
    BuilderTimeframe,
    SeriesTable<[numWallets: number, volume: number, minVolume: number, maxVolume: number | null, percentileGroup: PercentileGroup]>
  >;
}
