import Big from 'big.js';

export const ZERO_HASH = `0x${'0'.repeat(64)}`;

/**
 * A decimal string written the way Hyperliquid writes them: rounded to `dp` places, trailing zeros
 * dropped but at least one decimal kept ("4.0", "0.040673"), never an exponent, never "-0.0".
 */
export function hlDecimal(value: Big, dp: number): string {
  let text = value.round(dp, Big.roundHalfUp).toFixed(dp);
  if (text.includes('.')) text = text.replace(/0+$/, '').replace(/\.$/, '');
  if (!text.includes('.')) text += '.0';
  return text === '-0.0' ? '0.0' : text;
}

/** An integer count of units of 10^-dp as an exact decimal string (prices and sizes are generated as integers). */
export function unitsToDecimal(units: number, dp: number): string {
  return hlDecimal(unitsToBig(units, dp), dp);
}

export function unitsToBig(units: number, dp: number): Big {
  return new Big(units).times(new Big(`1e-${dp}`));
}

/**
 * hl-node's block/event time: UTC without a zone, nanosecond digits. The sub-millisecond digits are
 * given by the caller (random) so the text looks like the node's while the ms stay exact.
 */
export function nodeTime(ms: number, subMsNanos: number): string {
  return new Date(ms).toISOString().slice(0, 23) + String(subMsNanos).padStart(6, '0');
}
