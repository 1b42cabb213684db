import { describe, expect, it } from '@jest/globals';
import { PgNumeric } from '#database';
import { exactLiquidationProgress, liquidationProgress } from './state-model.js';

const n = (text: string) => PgNumeric.parse(text);

/** A fixed pseudo-random sequence (a linear congruential generator). */
function random(seed: number) {
  let x = seed;
  return (bound: number) => {
    x = (x * 1_103_515_245 + 12_345) % 2_147_483_648;
    return Math.floor((x / 2_147_483_648) * bound);
  };
}

const decimal = (next: (bound: number) => number, maxWhole: number, maxScale: number): string => {
  const scale = next(maxScale + 1);
  const whole = String(1 + next(maxWhole));
  return scale === 0 ? whole : `${whole}.${String(next(10 ** scale)).padStart(scale, '0')}`;
};

describe('liquidationProgress', () => {
  it('gives the exact decimal result, quick path or not, over 20,000 positions of every size', () => {
    const next = random(9);
    for (let i = 0; i < 20_000; i++) {
      const szi = `${next(2) ? '-' : ''}${decimal(next, 10 ** (1 + next(6)), 5)}`;
      const entry = decimal(next, 10 ** (1 + next(6)), 4);
      // The mark anywhere around the entry: profit, loss, past the liquidation price.
      const mark = Number(entry) * (0.5 + next(1_000) / 1_000);
      const value = (Math.abs(Number(szi)) * mark).toFixed(next(7));
      const liquidation = (Number(entry) * (0.2 + next(1_600) / 1_000)).toFixed(next(5));
      if (Number(value) === 0 || n(liquidation).cmp(n(entry)) === 0) continue;
      const args = [n(szi), n(entry), n(value), n(liquidation)] as const;
      expect([szi, entry, value, liquidation, `${liquidationProgress(...args)}`]).toEqual([szi, entry, value, liquidation, `${exactLiquidationProgress(...args)}`]);
    }
  });

  it('rounds half away from zero where the exact value is a half of a millionth, and clamps to 0 and 1', () => {
    // (100 - v / 1) / (100 - 0) = 0.5000005, 0.0000005, 0.9999995, 1.5 and -0.25.
    const cases: Array<[value: string, progress: string]> = [
      ['49.99995', '0.500001'],
      ['99.99995', '0.000001'],
      ['0.00005', '1'],
      ['-50', '1'],
      ['125', '0'],
      ['99.999951', '0'],
    ];
    for (const [value, progress] of cases) expect([value, `${liquidationProgress(n('1'), n('100'), n(value), n('0'))}`]).toEqual([value, progress]);
    expect(liquidationProgress(n('1'), n('100'), n('90'), null)).toBeNull();
    expect(liquidationProgress(n('1'), n('100'), n('90'), n('100.0'))).toBeNull();
  });
});
