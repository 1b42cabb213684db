import { describe, expect, it } from '@jest/globals';
import { SeededRandom } from './seeded-random.js';

describe('SeededRandom', () => {
  it('repeats a sequence for a seed and differs across seeds', () => {
    const draw = (seed: number) => {
      const r = new SeededRandom(seed);
      return Array.from({ length: 50 }, () => r.next());
    };
    expect(draw(1)).toEqual(draw(1));
    expect(draw(1)).not.toEqual(draw(2));
  });

  it('stays in range', () => {
    const r = new SeededRandom(9);
    for (let i = 0; i < 10_000; i++) {
      const x = r.next();
      expect(x >= 0 && x < 1).toBe(true);
      const n = r.int(3, 5);
      expect(n >= 3 && n <= 5 && Number.isInteger(n)).toBe(true);
    }
    expect(r.hex(40)).toMatch(/^[0-9a-f]{40}$/);
  });

  it('draws hex four digits a draw, as a padded base-16 number', () => {
    const hex = new SeededRandom(3);
    const draws = new SeededRandom(3);
    for (const digits of [40, 64, 32, 6, 1]) {
      let expected = '';
      while (expected.length < digits)
        expected += Math.floor(draws.next() * 65536)
          .toString(16)
          .padStart(4, '0');
      expect(hex.hex(digits)).toBe(expected.slice(0, digits));
    }
  });
});
