import { describe, expect, it } from '@jest/globals';
import { COHORTS, pnlCohortFor, sizeCohortFor } from './cohorts.js';

describe('cohorts', () => {
  it('are the 16 of the API contract with their exact criteria, in its table order', () => {
    expect(COHORTS.map(({ id, name, category, criteria }) => [id, name, category, criteria])).toEqual([
      [16, 'Shrimp', 'size', { minSize: 0, maxSize: 250 }],
      [1, 'Fish', 'size', { minSize: 250, maxSize: 10000 }],
      [2, 'Dolphin', 'size', { minSize: 10000, maxSize: 50000 }],
      [3, 'Apex Predator', 'size', { minSize: 50000, maxSize: 100000 }],
      [4, 'Small Whale', 'size', { minSize: 100000, maxSize: 500000 }],
      [5, 'Whale', 'size', { minSize: 500000, maxSize: 1000000 }],
      [6, 'Tidal Whale', 'size', { minSize: 1000000, maxSize: 5000000 }],
      [7, 'Leviathan', 'size', { minSize: 5000000 }],
      [8, 'Money Printer', 'pnl', { minPnl: 1000000 }],
      [9, 'Smart Money', 'pnl', { minPnl: 100000, maxPnl: 1000000 }],
      [10, 'Consistent Grinder', 'pnl', { minPnl: 10000, maxPnl: 100000 }],
      [11, 'Humble Earner', 'pnl', { minPnl: 0, maxPnl: 10000 }],
      [12, 'Exit Liquidity', 'pnl', { minPnl: -10000, maxPnl: 0 }],
      [13, 'Semi-Rekt', 'pnl', { minPnl: -100000, maxPnl: -10000 }],
      [14, 'Full Rekt', 'pnl', { minPnl: -1000000, maxPnl: -100000 }],
      [15, 'Giga-Rekt', 'pnl', { maxPnl: -1000000 }],
    ]);
  });

  it('each have one distinct emoji', () => {
    const emojis = COHORTS.map((s) => s.emoji);
    expect(new Set(emojis).size).toBe(16);
    for (const emoji of emojis) expect(emoji.length).toBeGreaterThan(0);
  });

  it.each([
    ['-5', 16],
    ['0', 16],
    ['249.999999', 16],
    ['250', 1],
    ['9999.99', 1],
    ['10000', 2],
    ['49999.999999999999', 2],
    ['50000', 3],
    ['100000', 4],
    ['499999.99', 4],
    ['500000', 5],
    ['1000000', 6],
    ['4999999.999999', 6],
    ['5000000', 7],
    ['987654321.5', 7],
  ])('perp equity %s USD is size cohort %i (lower bound inclusive)', (equity, id) => {
    expect(sizeCohortFor(equity)).toBe(id);
  });

  it.each([
    ['5000000', 8],
    ['1000000', 8],
    ['999999.999999', 9],
    ['100000', 9],
    ['99999.99', 10],
    ['10000', 10],
    ['9999.999999', 11],
    ['0', 11],
    ['-0.000001', 12],
    ['-10000', 12],
    ['-10000.000001', 13],
    ['-100000', 13],
    ['-100000.01', 14],
    ['-1000000', 14],
    ['-1000000.000001', 15],
    ['-72000000', 15],
  ])('all-time PnL %s USD is pnl cohort %i', (pnl, id) => {
    expect(pnlCohortFor(pnl)).toBe(id);
  });

  it('decides on exact decimals, not binary floats', () => {
    // 0.1 + 0.2 in binary floating point is 0.30000000000000004; as decimals it is exactly 0.3.
    expect(sizeCohortFor('249.99999999999999999999')).toBe(16);
    expect(pnlCohortFor('-9999.99999999999999999999')).toBe(12);
  });
});
