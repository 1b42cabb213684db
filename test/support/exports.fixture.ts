import { address, positionState, walletState } from '#testing';

// The exports suite's wallets and routes (test/e2e/exports.e2e-spec.ts).

export const T0 = Date.UTC(2026, 10, 20, 0, 0, 0);
export const HOUR = 3_600_000;
export const A = address(0xa1);
export const B = address(0xb2);
export const C = address(0xc3);
export const HEATMAP = '/api/external/exports/coins/BTC/liquidation-heatmap';
export const EQUITY = '/api/external/exports/total-wallets-equity-chart-data';

// Cohorts by the API contract's table: A 1,000 USD of perp equity and PnL 0 (Fish 1, Humble Earner 11);
// B 200,000 and PnL 20,000 (Small Whale 4, Consistent Grinder 10); C 100 and PnL -500 (Shrimp 16, Exit Liquidity 12).
export const wallets = (extra: { hype?: string } = {}) => [
  walletState(A, {
    perpEquity: '1000',
    allTimePnl: '0',
    spotHype: extra.hype ?? '0',
    positions: [
      positionState('BTC', {
        szi: '0.05',
        entryPx: '100000',
        positionValue: '5000',
        unrealizedPnl: '0',
        liquidationPx: '80000',
        leverageType: 'cross',
        leverage: 5,
      }),
      positionState('ETH', { szi: '-2', entryPx: '3000', positionValue: '6000', unrealizedPnl: '12.5', liquidationPx: '3500' }),
    ],
  }),
  walletState(B, {
    perpEquity: '200000',
    allTimePnl: '20000',
    positions: [
      positionState('BTC', {
        szi: '-1.5',
        entryPx: '100000',
        positionValue: '150000',
        unrealizedPnl: '-250.25',
        liquidationPx: '121000',
        leverageType: 'isolated',
        leverage: 10,
      }),
    ],
  }),
  walletState(C, {
    perpEquity: '100',
    allTimePnl: '-500',
    positions: [
      positionState('BTC', {
        szi: '0.003',
        entryPx: '100000',
        positionValue: '300',
        unrealizedPnl: '1.1',
        liquidationPx: '80500',
        leverage: 20,
      }),
    ],
  }),
];

/** Twenty markets of one position each: twenty different exports (the export-builds suite). */
export const COINS = Array.from({ length: 20 }, (_, i) => `C${String(i).padStart(2, '0')}`);

/** A HIP-3 market whose dex and name start like spreadsheet formulas, held short with negative decimals. */
export const HOSTILE_COIN = '@evil:-1';

/** `count` wallets holding BTC, each with one position, and the wallets of COINS and HOSTILE_COIN. */
export function manyWallets(count: number) {
  const btc = Array.from({ length: count }, (_, i) =>
    walletState(address(0x1000 + i), {
      perpEquity: String(1000 + i),
      positions: [positionState('BTC', { szi: '0.5', positionValue: '50000', entryPx: '100000', liquidationPx: String(60000 + i) })],
    }),
  );
  const coins = COINS.map((coin, i) => walletState(address(0x2000 + i), { positions: [positionState(coin)] }));
  const hostile = walletState(address(0x3000), {
    perpEquity: '100',
    allTimePnl: '-500',
    positions: [positionState(HOSTILE_COIN, { szi: '-3', entryPx: '10', positionValue: '42.5', unrealizedPnl: '-12.5' })],
  });
  return [...btc, ...coins, hostile];
}
