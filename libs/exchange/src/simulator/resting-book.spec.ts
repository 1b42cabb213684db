import { describe, expect, it } from '@jest/globals';
import { MarketBook } from './market-book.js';
import type { WireOrder } from './wire-event.types.js';
import { RestingBook, type OrderKeeper, type RestingOrder } from './resting-book.js';
import { SeededRandom } from './seeded-random.js';
import { Wallet } from './wallet-book.js';
import { makerProfile } from './wallet-profiles.js';

const random = new SeededRandom(1);
const market = new MarketBook(1).markets[0]!;
const owner = new Wallet('0x0000000000000000000000000000000000000001', makerProfile(random), random);
const keeper: OrderKeeper = { afterFill: () => undefined };
let oid = 0;
const order = (side: 'A' | 'B', pxTicks: number): RestingOrder => {
  const wire = { oid: ++oid } as WireOrder;
  return { owner, market, side, pxTicks, origUnits: 10, units: 10, wire, builder: null, keeper, resting: true };
};

describe('RestingBook', () => {
  it('gives the highest bid and the lowest ask, the oldest first at one price', () => {
    const book = new RestingBook();
    const [b1, b2, b3, a1, a2] = [order('B', 99), order('B', 100), order('B', 100), order('A', 102), order('A', 101)];
    for (const o of [b1, b2, b3, a1, a2]) book.add(o);
    expect(book.best('B')).toBe(b2);
    expect(book.best('A')).toBe(a2);
    expect([book.bestPx('B'), book.bestPx('A'), book.size]).toEqual([100, 101, 5]);
    book.remove(b2);
    expect(book.best('B')).toBe(b3);
    book.remove(b3);
    expect(book.best('B')).toBe(b1);
    expect(b2.resting).toBe(false);
  });

  it('finds the best price again after its level emptied and was filled anew, whatever the order of removals', () => {
    const book = new RestingBook();
    const asks = Array.from({ length: 500 }, (_, i) => order('A', 1_000 + ((i * 7919) % 500)));
    for (const o of asks) book.add(o);
    const left = new Set(asks);
    for (let i = 0; i < 450; i++) {
      const o = asks[(i * 104_729) % asks.length]!;
      if (!left.has(o)) continue;
      book.remove(o);
      left.delete(o);
      expect(book.bestPx('A')).toBe(Math.min(...[...left].map((x) => x.pxTicks)));
    }
    const again = order('A', 1_000);
    book.add(again);
    expect(book.best('A')).toBe(again);
    expect(book.size).toBe(left.size + 1);
    expect(() => book.remove(asks.find((o) => !left.has(o))!)).toThrow(/not in the book/);
  });
});
