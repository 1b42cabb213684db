/**
 * One exchange state update: every known wallet's perp account and HYPE balances at one block, as a
 * state source reads them (the simulator's books, or info `clearinghouseState` + spot state polled
 * from a node's info server or the public API). Decimals are the exact strings of the source.
 */
export interface ExchangeState {
  /** Block height the state was taken at. */
  height: number;
  /** Exchange time of that block (epoch ms): every derived row is stamped with it, never the wall clock. */
  timeMs: number;
  /** HYPE price in USD at that time, for spot and staked balances; null when unknown. */
  hypePx: string | null;
  wallets: WalletStateRecord[];
}

export interface WalletStateRecord {
  address: string;
  /** Perp account value: cash plus unrealized PnL (`marginSummary.accountValue`). */
  perpEquity: string;
  /** All-time perp PnL when the source knows it (the simulator does; `clearinghouseState` does not). */
  allTimePnl: string | null;
  spotHype: string;
  stakedHype: string;
  positions: PositionStateRecord[];
}

export interface PositionStateRecord {
  /** Market name as traded: `BTC`, or `prefix:SYMBOL` on a HIP-3 exchange. */
  coin: string;
  /** Signed size: negative is short. */
  szi: string;
  entryPx: string;
  /** |szi| x mark price. */
  positionValue: string;
  unrealizedPnl: string;
  liquidationPx: string | null;
  leverageType: 'cross' | 'isolated';
  leverage: number;
  marginUsed: string;
  /** Funding received (+) or paid (-) since the position opened. */
  fundingSinceOpen: string;
}

/** Where state updates come from; one per feed source. */
export interface StateSource {
  /** The state now, or null when the source has nothing new since `afterHeight`. */
  read(afterHeight: number | null): Promise<ExchangeState | null>;
}
