/** Side of a trade: the sign of the position it held. */
export type TradeSide = 'long' | 'short';

/**
 * One round trip of a wallet on one perp market, as the API contract's "Closed trade". Money, prices and sizes are
 * exact decimal strings (big.js `toFixed()`); times are epoch ms and the api formats them.
 */
export interface ClosedTrade {
  address: string;
  /** sha256 of the trade's identity (address, coin, first fill, how it started): stable across rebuilds. */
  hash: string;
  id: string;
  side: TradeSide;
  coin: string;
  /** Size-weighted; null when no opening fill was seen (a partial trade carried in and only reduced). */
  avgEntry: string | null;
  /** Size-weighted; null when no reducing fill was seen (a partial trade ended by a gap before any exit). */
  avgExit: string | null;
  /** closeTime - openTime, ms. */
  duration: number;
  openTime: number;
  closeTime: number;
  /** The data does not cover the whole trade: it was open before its first fill seen, or a gap ended it. */
  partial: boolean;
  /** Size opened by the fills seen (the carried-in size of a partial trade is in carriedSize, not here). */
  totalSize: string;
  /** Entry notional of totalSize. */
  totalUsd: string;
  /** Gross: the sum of the fills' closedPnl (fees are in fee/feeUsd, funding in fundingUsd). */
  realizedPnlUsd: string;
  /** A flip fill counts in both trades it touches. */
  countFills: number;
  fee: string;
  /** Perp fees are paid in USDC, so equal to fee. */
  feeUsd: string;
  /** Funding paid to (+) or by (-) the wallet while the trade was open; 0 without funding input. */
  fundingUsd: string;
  // Extras beyond the API contract, kept so summaries and storage need no second pass over fills.
  /** |position| already open when the first fill of the trade was seen; "0" unless partial from the start. */
  carriedSize: string;
  /** Size reduced by the fills seen, and its notional. */
  exitSize: string;
  exitUsd: string;
}

/** Win: net result (realized - fee + funding) above 0; loss: below 0; even: exactly 0. */
export type TradeOutcome = 'win' | 'loss' | 'even';

/** A stored trade as the list gives it: with its net result and the outcome the summary counts it under. */
export interface ListedClosedTrade extends ClosedTrade {
  /** realizedPnlUsd - feeUsd + fundingUsd, exact. */
  netPnlUsd: string;
  outcome: TradeOutcome;
}

/** A funding payment of one wallet (info `userFunding`, hl-node Funding event): usdc < 0 when paid. */
export interface FundingPayment {
  time: number;
  coin: string;
  usdc: string;
}

/** The last fill of a key, kept for the ordering check and to recognise the other leg of a self-trade. */
export interface LastFillRef {
  time: number;
  tid: number | null;
  hash: string;
  side: 'A' | 'B';
  px: string;
  sz: string;
  startPosition: string;
}

/** A trade still open: serialisable, so an incremental builder can be resumed (new ClosedTradeBuilder(states)). */
export interface OpenTradeState {
  address: string;
  coin: string;
  /** Signed running position after the last fill. */
  position: string;
  lastFill: LastFillRef;
  identity: string;
  side: TradeSide;
  openTime: number;
  partial: boolean;
  carriedSize: string;
  openedSize: string;
  entryUsd: string;
  exitSize: string;
  exitUsd: string;
  closedPnl: string;
  fee: string;
  funding: string;
  countFills: number;
  lastTime: number;
}
