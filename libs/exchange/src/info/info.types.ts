/** Margin totals of a clearinghouse state (cross-only or all positions). */
export interface MarginSummary {
  accountValue: string;
  totalMarginUsed: string;
  totalNtlPos: string;
  totalRawUsd: string;
}

export interface Leverage {
  type: 'cross' | 'isolated';
  value: number;
  /** Isolated margin only. */
  rawUsd: string | null;
}

export interface CumFunding {
  allTime: string;
  sinceOpen: string;
  sinceChange: string;
}

export interface Position {
  coin: string;
  /** Signed size: negative is short. */
  szi: string;
  entryPx: string;
  leverage: Leverage;
  /** Null when the position cannot be liquidated (enough margin at any price). */
  liquidationPx: string | null;
  marginUsed: string;
  positionValue: string;
  returnOnEquity: string;
  unrealizedPnl: string;
  /** In older responses only. */
  maxTradeSzs: string[] | null;
  /** In newer responses only. */
  maxLeverage: number | null;
  cumFunding: CumFunding | null;
}

export interface AssetPosition {
  /** "oneWay" as seen. */
  type: string;
  position: Position;
}

/** Info `clearinghouseState`: a wallet's perp account, read as one record (a state with a position missing would lie). */
export interface ClearinghouseState {
  assetPositions: AssetPosition[];
  crossMarginSummary: MarginSummary;
  marginSummary: MarginSummary;
  withdrawable: string;
  crossMaintenanceMarginUsed: string | null;
  /** Epoch ms of the state; newer responses only. */
  time: number | null;
}

export interface SpotBalance {
  coin: string;
  /** Token index. */
  token: number;
  hold: string;
  total: string;
  entryNtl: string;
}

/** Info `spotClearinghouseState`. */
export interface SpotClearinghouseState {
  balances: SpotBalance[];
}

/** An item of info `userFunding`. */
export interface UserFunding {
  time: number;
  hash: string;
  delta: {
    type: 'funding';
    coin: string;
    usdc: string;
    szi: string;
    fundingRate: string;
    nSamples: number | null;
  };
}

/** An item of info `fundingHistory` (one coin's funding rate per hour). */
export interface FundingRate {
  coin: string;
  fundingRate: string;
  premium: string;
  time: number;
}

/** Info `delegatorHistory` deltas, tagged by `kind` (the wire's single key). */
export type DelegatorDelta =
  | { kind: 'delegate'; validator: string; amount: string; isUndelegate: boolean }
  | { kind: 'cDeposit'; amount: string }
  | { kind: 'withdrawal'; amount: string; phase: string | null }
  | { kind: 'unknown'; wireKind: string; raw: unknown };

export interface DelegatorEvent {
  time: number;
  hash: string;
  delta: DelegatorDelta;
}

export interface PerpAssetMeta {
  name: string;
  szDecimals: number;
  maxLeverage: number;
  onlyIsolated: boolean;
  isDelisted: boolean;
}

/** Info `meta`. A market's asset id is its index in `universe`, so the universe is read whole or not at all. */
export interface PerpMeta {
  universe: PerpAssetMeta[];
}

/** Info `allMids`: mid price by coin. */
export type AllMids = Record<string, string>;

export interface BookLevel {
  px: string;
  sz: string;
  /** Number of orders at the level. */
  n: number;
}

/** Info `l2Book` and the websocket `l2Book` channel: bids best first, then asks best first. */
export interface L2Book {
  coin: string;
  time: number;
  levels: [bids: BookLevel[], asks: BookLevel[]];
}
