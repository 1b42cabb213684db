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

/**
 * An integer count of units of 10^-dp as an exact decimal string written like `hlDecimal` (prices and
 * sizes are generated as integers). Digits are placed by hand: this runs for every price and size written.
 */
export function unitsToDecimal(units: number, dp: number): string {
  if (!Number.isSafeInteger(units)) throw new Error(`not a whole number of units: ${units}`);
  const digits = String(Math.abs(units)).padStart(dp + 1, '0');
  const whole = digits.slice(0, digits.length - dp);
  const fraction = digits.slice(digits.length - dp).replace(/0+$/, '') || '0';
  return `${units < 0 && (whole !== '0' || fraction !== '0') ? '-' : ''}${whole}.${fraction}`;
}

export function unitsToBig(units: number, dp: number): Big {
  return new Big(unitsToDecimal(units, dp));
}

/**
 * hl-node's block/event time: UTC without a zone, nanosecond digits. The sub-millisecond digits are
 * given by the caller (random) so the text looks like the node's while the ms stay exact.
 */
export function nodeTime(ms: number, subMsNanos: number): string {
  return new Date(ms).toISOString().slice(0, 23) + String(subMsNanos).padStart(6, '0');
}
