import { describe, expect, it } from '@jest/globals';
import Big from 'big.js';
import { nodeTime, unitsToDecimal } from './wire-format.js';

/** How the simulator wrote decimals with big.js, before they were written from integers. */
function bigHlDecimal(value: Big, dp: number): string {
  let text = value.round(dp, Big.roundHalfUp).toFixed(dp);
  if (text.includes('.')) text = text.replace(/0+$/, '').replace(/\.$/, '');
  if (!text.includes('.')) text += '.0';
  return text === '-0.0' ? '0.0' : text;
}

describe('wire format', () => {
  it('writes whole units as Hyperliquid writes decimals', () => {
    expect(unitsToDecimal(97_000, 0)).toBe('97000.0');
    expect(unitsToDecimal(34_005, 1)).toBe('3400.5');
    expect(unitsToDecimal(18_000, 5)).toBe('0.18');
    expect(unitsToDecimal(7, 5)).toBe('0.00007');
    expect(unitsToDecimal(0, 4)).toBe('0.0');
    expect(unitsToDecimal(-1_250, 2)).toBe('-12.5');
    expect(unitsToDecimal(100, 2)).toBe('1.0');
  });

  it('agrees with big.js for every decimals count', () => {
    for (let dp = 0; dp <= 10; dp++) {
      for (const units of [0, 1, 9, 10, 101, 12_345, 1_000_000, 987_654_321_000, -3, -120, Number.MAX_SAFE_INTEGER]) {
        const exact = new Big(units).div(new Big(10).pow(dp));
        expect([dp, units, unitsToDecimal(units, dp)]).toEqual([dp, units, bigHlDecimal(exact, dp)]);
      }
    }
  });

  it('writes block times as hl-node does, nanosecond digits from the caller', () => {
    const ms = Date.UTC(2026, 10, 18, 7, 5, 9, 42);
    expect(nodeTime(ms, 7)).toBe('2026-11-18T07:05:09.042000007');
    expect(nodeTime(ms + 51_000, 999_999)).toBe('2026-11-18T07:06:00.042999999');
    for (let t = ms; t < ms + 200_000; t += 777) expect(nodeTime(t, 123)).toBe(`${new Date(t).toISOString().slice(0, 23)}000123`);
  });
});
