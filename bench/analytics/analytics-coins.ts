/**
 * The markets of the analytics dataset: real perp and HIP-3 names with mainnet-like price scales, and how
 * many of the open positions each one holds.
 */

export interface CoinSpec {
  index: number;
  coin: string;
  /** `main`, or the HIP-3 exchange of `xyz:TSLA`. */
  dex: string;
  szDecimals: number;
  pxDecimals: number;
  /** Mark price at the latest update, in ticks of 10^-pxDecimals. */
  markTicks: number;
  /** Open positions in this coin at the latest update. */
  openPositions: number;
  /** Share of the trades. */
  tradeWeight: number;
}

// [coin, mark price, size decimals]: real perps and HIP-3 markets, so names and price scales look like mainnet's.
const COIN_TABLE: ReadonlyArray<readonly [string, number, number]> = [
  ['BTC', 95_000, 5],
  ['ETH', 3_400, 4],
  ['SOL', 180, 2],
  ['HYPE', 38, 2],
  ['XRP', 2.3, 0],
  ['DOGE', 0.32, 0],
  ['SUI', 3.6, 1],
  ['ENA', 0.85, 0],
  ['AVAX', 35, 2],
  ['LINK', 22, 1],
  ['BNB', 640, 3],
  ['LTC', 95, 2],
  ['ADA', 0.9, 0],
  ['TRX', 0.25, 0],
  ['WIF', 1.9, 0],
  ['kPEPE', 0.018, 0],
  ['FARTCOIN', 1.2, 1],
  ['PUMP', 0.006, 0],
  ['AAVE', 310, 2],
  ['TAO', 420, 3],
  ['ARB', 0.75, 1],
  ['OP', 1.8, 1],
  ['APT', 9.5, 2],
  ['NEAR', 5.2, 1],
  ['TIA', 4.8, 1],
  ['SEI', 0.45, 0],
  ['INJ', 22, 1],
  ['JUP', 0.9, 0],
  ['ONDO', 1.3, 0],
  ['WLD', 2.1, 1],
  ['PENGU', 0.03, 0],
  ['kBONK', 0.025, 0],
  ['TRUMP', 14, 1],
  ['VIRTUAL', 1.6, 1],
  ['xyz:TSLA', 420, 3],
  ['xyz:NVDA', 180, 2],
  ['xyz:GOLD', 2_650, 4],
  ['flx:OIL', 72, 2],
  ['km:US500', 6_000, 4],
  ['cash:USA500', 6_000, 4],
];
/** Share of the open positions held in BTC, ETH, SOL and HYPE; the other markets share the rest by rank. */
const LEADING_SHARES = [0.22, 0.15, 0.07, 0.06];

/** Hyperliquid prices: at most 5 significant figures and 6 - szDecimals decimals. */
function pxDecimalsFor(px: number, szDecimals: number): number {
  const integerDigits = px >= 1 ? String(Math.floor(px)).length : 0;
  return Math.max(0, Math.min(6 - szDecimals, 5 - integerDigits));
}

export function coinSpecs(settings: { wallets: number; positions: number }): CoinSpec[] {
  const rest = 1 - LEADING_SHARES.reduce((a, b) => a + b, 0);
  const tail = COIN_TABLE.slice(LEADING_SHARES.length).map((_, j) => 1 / (j + 3));
  const tailSum = tail.reduce((a, b) => a + b, 0);
  const shares = COIN_TABLE.map((_, i) =>
    i < LEADING_SHARES.length ? LEADING_SHARES[i]! : (rest * tail[i - LEADING_SHARES.length]!) / tailSum,
  );
  // Whole counts that add up to the setting (the remainder to BTC); a wallet holds a coin once, so no
  // coin can have more positions than there are wallets.
  const counts = shares.map((s) => Math.min(settings.wallets, Math.floor(s * settings.positions)));
  counts[0] = Math.min(settings.wallets, counts[0]! + settings.positions - counts.reduce((a, b) => a + b, 0));
  return COIN_TABLE.map(([coin, px, szDecimals], index) => {
    const pxDecimals = pxDecimalsFor(px, szDecimals);
    return {
      index,
      coin,
      dex: coin.includes(':') ? coin.split(':')[0]! : 'main',
      szDecimals,
      pxDecimals,
      markTicks: Math.round(px * 10 ** pxDecimals),
      openPositions: counts[index]!,
      tradeWeight: 1 / (index + 2),
    };
  });
}
