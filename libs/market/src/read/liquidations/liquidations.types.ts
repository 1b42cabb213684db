import type { Side } from '#exchange';

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
