import type { ExchangeState, PositionStateRecord, WalletStateRecord } from '#exchange';

// Exchange state updates built by hand, for tests that apply them with MarketStateWriter.apply.

/** A wallet with neutral values: 1,000 USD of perp equity, no PnL, no HYPE, no positions. */
export function walletState(address: string, fields: Partial<WalletStateRecord> = {}): WalletStateRecord {
  return { address, perpEquity: '1000', allTimePnl: '0', spotHype: '0', stakedHype: '0', positions: [], ...fields };
}

/** A 1-unit long at 100 (value 100, no PnL, no liquidation price, cross 5x); override what the test checks. */
export function positionState(coin: string, fields: Partial<PositionStateRecord> = {}): PositionStateRecord {
  return {
    coin,
    szi: '1',
    entryPx: '100',
    positionValue: '100',
    unrealizedPnl: '0',
    liquidationPx: null,
    leverageType: 'cross',
    leverage: 5,
    marginUsed: '20',
    fundingSinceOpen: '0',
    ...fields,
  };
}

/** One state update at `height`, exchange time `timeMs`; HYPE at 40 USD unless given. */
export function exchangeState(height: number, timeMs: number, wallets: WalletStateRecord[], hypePx: string | null = '40'): ExchangeState {
  return { height, timeMs, hypePx, wallets };
}
