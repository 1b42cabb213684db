import type { Cohort } from '../../cohorts/cohorts.js';
import type { PositionRecord } from '../positions/positions.types.js';

/** The API contract's wallet profile; decimals already JSON numbers, times ISO with milliseconds. */
export interface WalletProfile {
  xUserId: string | null;
  displayName: string | null;
  emoji: string | null;
  verified: boolean;
  /** [size cohort id, pnl cohort id]. */
  segments: [number, number];
  address: string;
  /** Consumers that keep the wallet among their favourites. */
  favoriteCount: number;
  totalEquity: number;
  earliestActivityAt: string;
  perpPnl: number;
  perpEquity: number;
  /** Open value / perp equity; null without an open position or positive perp equity. */
  exposureRatio: number | null;
  /** (long value - short value) / perp equity; null as exposureRatio. */
  perpBias: number | null;
  openValue: number;
  sumUpnl: number;
  /** Vaults are not tracked: always null. */
  vault: null;
  /** The open position nearest its liquidation price; both null when no position has one. */
  closestLiq: { coin: string | null; progress: number | null };
}

/** The `orderBy` values of the wallet list, in the API contract's order. */
export const WALLET_ORDER_FIELDS = [
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
] as const;
export type WalletOrderField = (typeof WALLET_ORDER_FIELDS)[number];

export interface WalletsListRequest {
  /** Wallets to skip; default 0. */
  offset?: number;
  /** 1..500; default 500. */
  limit?: number;
  /** Default desc. */
  order?: 'asc' | 'desc';
  /** Default totalEquity. */
  orderBy?: WalletOrderField;
  /** Wallets whose size or pnl cohort is one of these ids (1..16). */
  segmentIds?: number[];
  /** true: only wallets with an open position; false: only those without. */
  hasOpenPositions?: boolean;
  /** One wallet, 0x and 40 hex digits, any case. */
  address?: string;
}

export interface WalletsPage {
  /** Wallets matching the filters, on every page. */
  totalCount: number;
  items: WalletProfile[];
}

/** One wallet for the account routes: its profile, its two cohorts and its open positions. */
export interface WalletDetail {
  wallet: WalletProfile;
  /** Its size cohort, then its pnl cohort. */
  segments: [Cohort, Cohort];
  /** Newest open time first, as the positions route orders them. */
  positions: PositionRecord[];
  /** Whether the calling consumer keeps it among its favourites. */
  isFavorite: boolean;
}
