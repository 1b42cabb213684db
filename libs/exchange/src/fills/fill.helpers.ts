import Big from 'big.js';
import type { Fill } from './fill.types.js';

const ZERO_HASH = `0x${'0'.repeat(64)}`;

export type PositionSide = 'long' | 'short' | 'flat';

/**
 * True on the liquidated user's own fill. The `liquidation` object is on both sides of a liquidation
 * trade, so its presence alone does not say whose position was liquidated.
 */
export function isLiquidatedSide(fill: Pick<Fill, 'liquidation'>, address: string): boolean {
  return fill.liquidation !== null && fill.liquidation.liquidatedUser.toLowerCase() === address.toLowerCase();
}

/** The position before the fill as an exact decimal (negative = short). Use toFixed(), not toString(), to avoid exponents. */
export function signedStartPosition(fill: Pick<Fill, 'startPosition'>): Big {
  return new Big(fill.startPosition);
}

/** Side of the position before the fill: a liquidated long shows a positive startPosition. */
export function startPositionSide(fill: Pick<Fill, 'startPosition'>): PositionSide {
  const sign = signedStartPosition(fill).cmp(0);
  return sign > 0 ? 'long' : sign < 0 ? 'short' : 'flat';
}

/** The fill's size signed by its side: a buy (B) adds to the position, a sell (A) takes from it. */
export function signedSize(fill: Pick<Fill, 'side' | 'sz'>): Big {
  const size = new Big(fill.sz);
  return fill.side === 'B' ? size : size.neg();
}

/** The position right after the fill. */
export function endPosition(fill: Pick<Fill, 'side' | 'sz' | 'startPosition'>): Big {
  return signedStartPosition(fill).plus(signedSize(fill));
}

/**
 * The venue of a market: "" for the main perp venue, the prefix for a HIP-3 `prefix:SYMBOL` market.
 * Spot names ("@107", "PURR/USDC") have no colon and are on the main venue.
 */
export function dexOf(coin: string): string {
  const colon = coin.indexOf(':');
  return colon > 0 ? coin.slice(0, colon) : '';
}

/** Spot markets are named "@<index>" or "BASE/QUOTE"; perps are bare symbols or `prefix:SYMBOL`. */
export function isSpotCoin(coin: string): boolean {
  return coin.startsWith('@') || coin.includes('/');
}

/**
 * A fill of the TWAP owner's slice. Only that side carries twapId; the counterparty's fill has the
 * same all-zero hash but twapId null, so the hash alone does not identify a slice.
 */
export function isTwapSlice(fill: Pick<Fill, 'twapId'>): boolean {
  return fill.twapId !== null;
}

/** The all-zero hash that hl-node puts on fills and events not tied to a user transaction. */
export function isZeroHash(hash: string | null): boolean {
  return hash === ZERO_HASH;
}
