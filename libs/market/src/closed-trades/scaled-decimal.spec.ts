import { describe, expect, it } from '@jest/globals';
import { dec, str } from './closed-trade.decimal.js';
import { ScaledDecimal } from './scaled-decimal.js';

// Values like the builder's: sizes, prices, fees and PnL of fills, positive and negative, 0 to 12 places,
// tiny to large, and zeros written several ways.
function* samples(seed: number, count: number): Generator<string> {
  let state = seed;
  const next = (): number => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
  const fixed = ['0', '0.0', '-0.0', '-0', '1', '-1', '0.000001', '123456789.123456789', '-0.5', '2.5', '1e-7', '1.5e3'];
  for (const value of fixed) yield value;
  for (let i = 0; i < count; i++) {
    const places = Math.floor(next() * 13);
    const whole = Math.floor(next() * 10 ** Math.floor(next() * 10));
    const fraction =
      places === 0
        ? ''
        : `.${Math.floor(next() * 10 ** places)
            .toString()
            .padStart(places, '0')}`;
    yield `${next() < 0.4 ? '-' : ''}${whole}${fraction}`;
  }
}

describe('ScaledDecimal against big.js (Dec)', () => {
  const values = [...samples(7, 300)];

  it('reads and writes every value as big.js does', () => {
    for (const v of values) expect([v, ScaledDecimal.from(v).toFixed()]).toEqual([v, str(dec(v))]);
  });

  it('adds, subtracts, multiplies, divides and compares as big.js does', () => {
    const mismatches: string[] = [];
    for (let i = 0; i < values.length; i++) {
      for (const j of [i, (i * 7 + 3) % values.length, (i * 13 + 5) % values.length, values.length - 1 - i]) {
        const [a, b] = [values[i]!, values[j]!];
        const [x, y] = [ScaledDecimal.from(a), ScaledDecimal.from(b)];
        const [bx, by] = [dec(a), dec(b)];
        const got = [
          x.plus(y).toFixed(),
          x.minus(y).toFixed(),
          x.times(y).toFixed(),
          x.cmp(y),
          x.eq(y),
          x.gt(y),
          x.lt(y),
          x.lte(y),
          x.abs().toFixed(),
          x.neg().toFixed(),
        ];
        const want = [
          str(bx.plus(by)),
          str(bx.minus(by)),
          str(bx.times(by)),
          bx.cmp(by),
          bx.eq(by),
          bx.gt(by),
          bx.lt(by),
          bx.lte(by),
          str(bx.abs()),
          str(bx.neg()),
        ];
        if (!by.eq(0)) {
          got.push(x.div(y).toFixed(), x.times(y).div(x.abs().plus('0.37')).toFixed());
          want.push(str(bx.div(by)), str(bx.times(by).div(bx.abs().plus('0.37'))));
        }
        if (JSON.stringify(got) !== JSON.stringify(want)) mismatches.push(`${a} ${b}: ${JSON.stringify(got)} != ${JSON.stringify(want)}`);
      }
    }
    expect(mismatches).toEqual([]);
  });

  it('rounds a quotient half to even at 18 places', () => {
    // 1/3, 2/3 and exact halves at the 19th place, both signs.
    const cases: Array<[string, string]> = [
      ['1', '3'],
      ['2', '3'],
      ['-2', '3'],
      ['0.0000000000000000005', '1'],
      ['0.0000000000000000015', '1'],
      ['-0.0000000000000000025', '1'],
      ['1', '-8'],
    ];
    for (const [a, b] of cases) expect([a, b, ScaledDecimal.from(a).div(b).toFixed()]).toEqual([a, b, str(dec(a).div(b))]);
  });

  it('refuses what is not a number', () => {
    for (const bad of ['', '.', 'abc', '1..2', '0x10', '--1']) expect(() => ScaledDecimal.from(bad)).toThrow(TypeError);
  });
});
