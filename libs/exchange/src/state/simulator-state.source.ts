import Big from 'big.js';
import type { HyperliquidSimulator } from '../simulator/simulator.js';
import type { PositionSnapshot, WalletSnapshot } from '../simulator/wallet-book.js';
import type { ExchangeState, PositionStateRecord, WalletStateRecord } from './exchange-state.types.js';

const HYPE = 'HYPE';
/** HYPE's price when the simulated markets do not include it (the simulator values HYPE near it too). */
const DEFAULT_HYPE_PX = '38';

/**
 * The simulator's books as a state update, taken at the simulator's current block. Makers are the
 * simulated exchange's liquidity, not users, so they are left out as a real state source would only
 * know them as ordinary wallets among hundreds of thousands.
 */
export function simulatorExchangeState(simulator: HyperliquidSimulator): ExchangeState {
  const hype = simulator.marketPrices().find((m) => m.coin === HYPE);
  return {
    height: simulator.height,
    timeMs: simulator.nowMs,
    hypePx: hype?.px ?? DEFAULT_HYPE_PX,
    wallets: simulator.walletStates().filter((w) => w.role !== 'maker').map(walletRecord),
  };
}

function walletRecord(wallet: WalletSnapshot): WalletStateRecord {
  const equity = new Big(wallet.perpEquity);
  let notional = new Big(0);
  for (const p of wallet.positions) notional = notional.plus(p.positionValue);
  // The simulator margins everything cross; its leverage is the account's, rounded up as the exchange shows it.
  const leverage = equity.gt(0) ? Math.min(50, Math.max(1, Math.ceil(notional.div(equity).toNumber()))) : 50;
  return {
    address: wallet.address,
    perpEquity: wallet.perpEquity,
    allTimePnl: wallet.allTimePnl,
    spotHype: wallet.spotHype,
    stakedHype: wallet.stakedHype,
    positions: wallet.positions.map((p) => positionRecord(p, leverage)),
  };
}

function positionRecord(p: PositionSnapshot, leverage: number): PositionStateRecord {
  return {
    coin: p.coin,
    szi: p.szi,
    entryPx: p.entryPx,
    positionValue: p.positionValue,
    unrealizedPnl: p.unrealizedPnl,
    liquidationPx: p.liquidationPx,
    leverageType: 'cross',
    leverage,
    marginUsed: new Big(p.positionValue).div(leverage).round(6, Big.roundHalfUp).toFixed(),
    fundingSinceOpen: p.fundingSinceOpen,
  };
}
