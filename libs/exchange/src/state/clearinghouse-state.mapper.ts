import Big from 'big.js';
import type { ClearinghouseState, SpotClearinghouseState } from '../info/info.types.js';
import type { WalletStateRecord } from './exchange-state.types.js';

/**
 * A wallet's state record from info `clearinghouseState` (and `spotClearinghouseState` when polled).
 * Hyperliquid's `cumFunding` counts funding paid as positive, so its sign is turned to the record's
 * received-positive convention. Older responses carry no `cumFunding`: funding is then 0.
 * The info API has no all-time PnL, so it is left null (the wallet keeps what it had).
 */
export function walletStateFromClearinghouse(
  address: string,
  perp: ClearinghouseState,
  spot: SpotClearinghouseState | null,
  stakedHype = '0',
): WalletStateRecord {
  const hype = spot?.balances.find((b) => b.coin === 'HYPE');
  return {
    address: address.toLowerCase(),
    perpEquity: perp.marginSummary.accountValue,
    allTimePnl: null,
    spotHype: hype?.total ?? '0',
    stakedHype,
    positions: perp.assetPositions.map(({ position: p }) => ({
      coin: p.coin,
      szi: p.szi,
      entryPx: p.entryPx,
      positionValue: p.positionValue,
      unrealizedPnl: p.unrealizedPnl,
      liquidationPx: p.liquidationPx,
      leverageType: p.leverage.type,
      leverage: p.leverage.value,
      marginUsed: p.marginUsed,
      fundingSinceOpen: p.cumFunding ? new Big(p.cumFunding.sinceOpen).neg().toFixed() : '0',
    })),
  };
}
