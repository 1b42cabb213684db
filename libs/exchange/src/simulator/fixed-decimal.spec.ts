import { describe, expect, it } from '@jest/globals';
import Big from 'big.js';
import { bigText, divide, DIVISION_DP, hlDecimalOf, parseUnits, plainText, rescale, toNumber, unitsToNumber } from './fixed-decimal.js';
import { SeededRandom } from './seeded-random.js';

// A big.js of its own, with the defaults the simulator's output was made with (DP 20, RM half up).
const Dec = Big();

/** How the simulator wrote decimals with big.js. */
function bigHlDecimal(value: Big, dp: number): string {
  let text = value.round(dp, Big.roundHalfUp).toFixed(dp);
  if (text.includes('.')) text = text.replace(/0+$/, '').replace(/\.$/, '');
  if (!text.includes('.')) text += '.0';
  return text === '-0.0' ? '0.0' : text;
}

const random = new SeededRandom(7);

/** A signed integer of up to `digits` digits, often with runs of 9s, 0s and a 5 where roundings tie. */
function randomUnits(digits: number): bigint {
  const length = random.int(1, digits);
  let text = '';
  const style = random.int(0, 3);
  for (let i = 0; i < length; i++) {
    if (style === 1 && i >= length - 4) text += i === length - 4 ? '5' : '0';
    else if (style === 2 && i > length / 2) text += '9';
    else text += String(random.int(0, 9));
  }
  const units = BigInt(text);
  return random.chance(0.4) ? -units : units;
}

const asBig = (units: bigint, scale: number) => new Dec(plainText(units, scale));

describe('fixed decimals against big.js', () => {
  it('round as big.js rounds, half away from zero and away from zero', () => {
    for (let n = 0; n < 5_000; n++) {
      const units = randomUnits(24);
      const from = random.int(0, 22);
      const to = random.int(0, 12);
      // The result is in units of 10^-to; a zero big.js gives as "-0.00" is 0, which has no sign.
      const expected = (rounding: Big.RoundingMode) =>
        asBig(units, from)
          .round(to, rounding)
          .toFixed(to)
          .replace(/^-(0\.?0*)$/, '$1');
      expect([units, from, to, plainText(rescale(units, from, to), to)]).toEqual([units, from, to, expected(Big.roundHalfUp)]);
      expect(plainText(rescale(units, from, to, 'up'), to)).toBe(expected(Big.roundUp));
    }
  });

  it('divide as big.js divides, to 20 places half up', () => {
    for (let n = 0; n < 5_000; n++) {
      const a = randomUnits(30);
      let b = randomUnits(random.chance(0.5) ? 4 : 16);
      if (b === 0n) b = 7n;
      const aScale = random.int(0, 14);
      const bScale = random.int(0, 8);
      expect([a, aScale, b, bScale, plainText(divide(a, aScale, b, bScale), DIVISION_DP)]).toEqual([
        a,
        aScale,
        b,
        bScale,
        asBig(a, aScale).div(asBig(b, bScale)).toFixed(DIVISION_DP),
      ]);
    }
  });

  it('give the entry price weighted mean of big.js, both roundings included', () => {
    for (let n = 0; n < 5_000; n++) {
      const szDp = random.int(0, 5);
      const pxDp = random.int(0, 5);
      const entry = BigInt(random.int(1, 2_000_000_000)) * BigInt(random.int(1, 100_000));
      const held = random.int(1, random.chance(0.5) ? 1_000 : 1_000_000_000_000);
      const added = random.int(1, random.chance(0.5) ? 1_000 : 1_000_000_000);
      const px = BigInt(random.int(1, 100_000_000));
      const exact = rescale(
        divide(entry * BigInt(held) + px * 10n ** BigInt(8 - pxDp) * BigInt(added), 8, BigInt(held + added), 0),
        DIVISION_DP,
        8,
      );
      const e = asBig(entry, 8);
      const s = asBig(BigInt(held), szDp);
      const z = asBig(BigInt(added), szDp);
      const big = e.times(s).plus(asBig(px, pxDp).times(z)).div(s.plus(z)).round(8);
      expect(hlDecimalOf(exact, 8)).toBe(bigHlDecimal(big, 8));
    }
  });

  it('keep big.js double rounding where a single rounding would differ', () => {
    // 0.123456784999999999995: to 20 places it is ...785 (half up), then to 8 places 0.12345679.
    const q = divide(123456784999999999995n, 21, 1n, 0);
    expect(plainText(rescale(q, DIVISION_DP, 8), 8)).toBe(new Dec('0.123456784999999999995').div(1).round(8).toFixed(8));
    expect(plainText(rescale(q, DIVISION_DP, 8), 8)).toBe('0.12345679');
  });

  it('convert to the double big.js toNumber gives', () => {
    for (let n = 0; n < 5_000; n++) {
      const units = randomUnits(random.chance(0.5) ? 15 : 30);
      const scale = random.int(0, 25);
      expect([units, scale, toNumber(units, scale)]).toEqual([units, scale, asBig(units, scale).toNumber()]);
    }
    for (let n = 0; n < 2_000; n++) {
      const units = random.int(-1e12, 1e12);
      const scale = random.int(0, 10);
      expect(unitsToNumber(units, scale)).toBe(asBig(BigInt(units), scale).toNumber());
    }
  });

  it('write decimals as big.js wrote them', () => {
    for (let n = 0; n < 5_000; n++) {
      const units = randomUnits(24);
      const scale = random.int(0, 14);
      const dp = random.int(0, 10);
      expect([units, scale, dp, hlDecimalOf(units, scale, dp)]).toEqual([units, scale, dp, bigHlDecimal(asBig(units, scale), dp)]);
      expect(bigText(units, scale)).toBe(asBig(units, scale).toFixed());
      expect(parseUnits(asBig(units, scale).toFixed(), scale)).toBe(units);
    }
  });

  it('refuse a text with more places than asked for', () => {
    expect(() => parseUnits('1.2345', 3)).toThrow('not a decimal of at most 3 places');
    expect(() => parseUnits('1e5', 3)).toThrow();
    expect(parseUnits('-0.5', 2)).toBe(-50n);
  });
});
