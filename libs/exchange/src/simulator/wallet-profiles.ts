import type { SeededRandom } from './seeded-random.js';

/** What a wallet is meant to look like: drawn once at creation so every cohort is populated. */
export interface WalletProfile {
  role: 'trader' | 'maker';
  /** Perp equity (USD) the wallet starts with. */
  targetEquity: number;
  /** All-time PnL (USD) it has already made before the simulated span starts. */
  targetPnl: number;
  /** Notional it is willing to carry, as a multiple of equity; degens run high enough to get liquidated. */
  leverage: number;
}

// Inside each size cohort of the API contract with a margin from its bounds, so normal trading does not move a
// wallet across a boundary within a few simulated hours.
const EQUITY_RANGES: readonly [number, number][] = [
  [20, 200],
  [400, 8_000],
  [12_000, 45_000],
  [55_000, 95_000],
  [120_000, 450_000],
  [550_000, 950_000],
  [1_200_000, 4_500_000],
  [6_000_000, 30_000_000],
];

const PNL_RANGES: readonly [number, number][] = [
  [1_500_000, 8_000_000],
  [120_000, 900_000],
  [12_000, 90_000],
  [500, 9_000],
  [-9_000, -500],
  [-90_000, -12_000],
  [-900_000, -120_000],
  [-8_000_000, -1_500_000],
];

/** The i-th trader: size and pnl cohorts are walked as a grid so the first 64 wallets hit every pair. */
export function traderProfile(index: number, random: SeededRandom): WalletProfile {
  const [eqLo, eqHi] = EQUITY_RANGES[index % 8]!;
  const [pnlLo, pnlHi] = PNL_RANGES[Math.floor(index / 8) % 8]!;
  const degen = index % 10 === 7;
  return {
    role: 'trader',
    targetEquity: Math.round(random.between(eqLo, eqHi)),
    targetPnl: Math.round(random.between(pnlLo, pnlHi)),
    leverage: degen ? random.between(25, 40) : random.between(0.3, 3),
  };
}

/** Market makers take the other side of every taker trade and act as the liquidator. */
export function makerProfile(random: SeededRandom): WalletProfile {
  return {
    role: 'maker',
    targetEquity: Math.round(random.between(40e6, 60e6)),
    targetPnl: Math.round(random.between(2e6, 5e6)),
    leverage: 0,
  };
}
