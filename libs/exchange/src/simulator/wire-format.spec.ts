import { describe, expect, it } from '@jest/globals';
import Big from 'big.js';
import { hlDecimal, unitsToBig, unitsToDecimal } from './wire-format.js';

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

  it('agrees with hlDecimal of the exact value for every decimals count', () => {
    for (let dp = 0; dp <= 10; dp++) {
      for (const units of [0, 1, 9, 10, 101, 12_345, 1_000_000, 987_654_321_000, -3, -120, Number.MAX_SAFE_INTEGER]) {
        const exact = new Big(units).div(new Big(10).pow(dp));
        expect([dp, units, unitsToDecimal(units, dp)]).toEqual([dp, units, hlDecimal(exact, dp)]);
        expect(unitsToBig(units, dp).eq(exact)).toBe(true);
      }
    }
  });
});
