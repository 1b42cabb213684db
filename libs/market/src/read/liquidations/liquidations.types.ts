import type { Side } from '#exchange';

/** A stored liquidation fill as the queries read it: decimals as the exact stored strings, bigints as text, time in epoch ms. */
export interface LiquidationFillRecord {
  address: string;
  coin: string;
  px: string;
  sz: string;
  side: Side;
  timeMs: number;
  startPosition: string;
  dir: string;
  closedPnl: string;
  hash: string;
  oid: string;
  crossed: boolean;
  fee: string;
  feeToken: string | null;
  tid: string;
  builder: string | null;
  builderFee: string | null;
  liquidatedUser: string;
  liquidationMarkPx: string;
  liquidationMethod: string;
}

/** The contract's "Liquidation fill", in its field order: numbers are JSON numbers, `time` ISO 8601 with milliseconds. */
export interface LiquidationFill {
  oid: number;
  address: string;
  coin: string;
  fullCoinName: string;
  fillType: 'perp';
  px: number;
  sz: number;
  side: Side;
  time: string;
  startPosition: number;
  dir: string;
  closedPnl: number;
  hash: string;
  crossed: boolean;
  fee: number;
  builderFee: number;
  tid: number;
  feeToken: string;
  builder: string;
  liquidatedUser: string;
  liquidationMarkPx: number;
  liquidationMethod: string;
}

/** Filters of the liquidation-fills list; they combine with AND, and an omitted one does not filter. */
export interface LiquidationFillFilters {
  /** The stored spelling (CoinsService.resolve). */
  coin?: string;
  /** The fill's wallet, any case. */
  address?: string;
  side?: Side;
  /** Inclusive bounds on the fill time, epoch ms. */
  startMs?: number;
  endMs?: number;
}

/** Where a page ended: the last fill's sort key (time, tid, address), newest first. */
export interface LiquidationFillCursor {
  timeMs: number;
  /** A bigint, kept as text so no precision is lost on the way. */
  tid: string;
  address: string;
}

export interface LiquidationFillsPage {
  fills: LiquidationFillRecord[];
  /** Null on the last page. */
  next: LiquidationFillCursor | null;
}

/** One coin of a cohort's open positions: exact decimal strings. */
export interface LiquidationRiskRecord {
  coin: string;
  totalValue: string;
  riskValue: string;
  percentRisk: string;
}

export interface LiquidationRiskRecords {
  /** Coins the cohort holds open positions in, whatever the page. */
  totalCount: number;
  items: LiquidationRiskRecord[];
}

/** The contract's "Liquidation risk item". */
export interface LiquidationRiskItem {
  coin: string;
  totalValue: number;
  riskValue: number;
  percentRisk: number;
}

export interface LiquidationRiskPage {
  totalCount: number;
  items: LiquidationRiskItem[];
}
