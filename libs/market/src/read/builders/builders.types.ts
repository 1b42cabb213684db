import type { PercentileGroup } from './builder-timeframes.js';

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
}

export interface BuilderTotals {
  builder: string;
  firstFillTime: number;
  lastFillTime: number;
  revenue: string;
  volume: string;
  fills: number;
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
