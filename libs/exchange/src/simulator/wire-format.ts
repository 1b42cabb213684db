import { hlText } from './fixed-decimal.js';

export const ZERO_HASH = `0x${'0'.repeat(64)}`;

/**
 * An integer count of units of 10^-dp as Hyperliquid writes decimals ("4.0", "0.040673", never "-0.0"):
 * prices and sizes are generated as integers, and this runs for every price and size written.
 */
export function unitsToDecimal(units: number, dp: number): string {
  if (!Number.isSafeInteger(units)) throw new Error(`not a whole number of units: ${units}`);
  return hlText(units < 0, String(Math.abs(units)), dp);
}

// The minute's text is shared by the blocks of a minute: toISOString per block was a measurable cost.
let minuteCache = { minute: -1, text: '' };

/**
 * hl-node's block/event time: UTC without a zone, nanosecond digits. The sub-millisecond digits are
 * given by the caller (random) so the text looks like the node's while the ms stay exact.
 */
export function nodeTime(ms: number, subMsNanos: number): string {
  const minute = Math.floor(ms / 60_000);
  if (minute !== minuteCache.minute) minuteCache = { minute, text: new Date(minute * 60_000).toISOString().slice(0, 17) };
  const inMinute = ms - minute * 60_000;
  const seconds = Math.floor(inMinute / 1000);
  return `${minuteCache.text}${seconds < 10 ? '0' : ''}${seconds}.${String(inMinute - seconds * 1000).padStart(3, '0')}${String(subMsNanos).padStart(6, '0')}`;
}
