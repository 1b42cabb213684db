import { bigText, divide, DIVISION_DP, parseUnits, rescale, toNumber } from '../simulator/fixed-decimal.js';
import type { HyperliquidSimulator } from '../simulator/simulator.js';
import type { PositionSnapshot, WalletSnapshot } from '../simulator/wallet-book.js';
import type { ExchangeState, PositionStateRecord, WalletStateRecord } from './exchange-state.types.js';

const HYPE = 'HYPE';
/** HYPE's price when the simulated markets do not include it (the simulator values HYPE near it too). */
const DEFAULT_HYPE_PX = '38';
/** Places of the snapshot's USDC values (perpEquity, positionValue), so they parse exactly. */
const USD_DP = 6;

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
    wallets: simulator
      .walletStates()
      .filter((w) => w.role !== 'maker')
      .map(walletRecord),
  };
}

function walletRecord(wallet: WalletSnapshot): WalletStateRecord {
  const equity = parseUnits(wallet.perpEquity, USD_DP);
  let notional = 0n;
  for (const p of wallet.positions) notional += parseUnits(p.positionValue, USD_DP);
  // The simulator margins everything cross; its leverage is the account's, rounded up as the exchange shows it.
  const leverage = equity > 0n ? Math.min(50, Math.max(1, Math.ceil(toNumber(divide(notional, USD_DP, equity, USD_DP), DIVISION_DP)))) : 50;
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
    marginUsed: bigText(rescale(divide(parseUnits(p.positionValue, USD_DP), USD_DP, BigInt(leverage), 0), DIVISION_DP, USD_DP), USD_DP),
    fundingSinceOpen: p.fundingSinceOpen,
  };
}
