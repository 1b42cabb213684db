import type { BlockDraft } from './block-draft.js';
import type { Market } from './market-book.js';
import { MinHeap } from './min-heap.js';
import { leftOf, type OrderDesk } from './order-desk.js';
import type { WireBuilder } from './wire-event.types.js';
import type { OrderMatcher } from './order-matching.js';
import type { OrderKeeper, RestingBooks, RestingOrder } from './resting-book.js';
import type { Ranges, SeededRandom } from './seeded-random.js';
import { BUILDER_FEE_TENTHS_BP } from './trade-writer.js';
import type { Wallet } from './wallet-book.js';
import type { ExchangeClock } from './simulator.types.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** How far from the mid users place their orders, as a fraction of the price. */
const DISTANCES: Ranges = [
  [0.005, 0.02, 0.25],
  [0.02, 0.05, 0.35],
  [0.05, 0.1, 0.25],
  [0.1, 0.2, 0.15],
];

/** How long an order rests unless the price reaches it first: minutes to days. */
const LIFETIMES: Ranges = [
  [10 * MINUTE, HOUR, 0.15],
  [HOUR, 6 * HOUR, 0.3],
  [6 * HOUR, DAY, 0.3],
  [DAY, 3 * DAY, 0.15],
  [3 * DAY, 7 * DAY, 0.1],
];

/** Hyperliquid's minimum order value. */
const MIN_NOTIONAL = 10;

interface Expiry {
  atMs: number;
  order: RestingOrder;
}

/** Soonest first; order ids break ties. */
export class ExpiryHeap extends MinHeap<Expiry> {
  protected less(a: Expiry, b: Expiry): boolean {
    return a.atMs < b.atMs || (a.atMs === b.atMs && a.order.wire.oid < b.order.wire.oid);
  }
}

export interface UserOrderParties {
  traders: readonly Wallet[];
  /** Takers of orders the price reached. */
  makers: readonly Wallet[];
  markets: readonly Market[];
  builders: readonly string[];
}

/**
 * Ordinary wallets' GTC and ALO limit orders away from the mid, kept at `target` open orders: one that
 * ends (canceled by its owner when its time is up, or filled when the price reaches it) is replaced at the
 * start of the next block. Takers sweeping the book fill them partly on the way.
 */
export class UserLimitOrders implements OrderKeeper {
  private open = 0;
  private readonly expiries = new ExpiryHeap();
  /** Placements per block at most, so a large book is built over the first minutes rather than in one huge block line. */
  private readonly perBlock: number;

  constructor(
    private readonly target: number,
    private readonly parties: UserOrderParties,
    private readonly books: RestingBooks,
    private readonly desk: OrderDesk,
    private readonly matcher: OrderMatcher,
    private readonly random: SeededRandom,
    private readonly clock: ExchangeClock,
  ) {
    this.perBlock = Math.max(4, Math.ceil(target / 300));
  }

  /** Every block, after the makers moved their ladders. */
  maintain(d: BlockDraft): void {
    this.expire(d);
    for (const market of this.parties.markets) this.fillReached(d, market);
    for (let n = Math.min(this.target - this.open, this.perBlock); n > 0; n--) this.place(d);
  }

  afterFill(_d: BlockDraft, order: RestingOrder): void {
    if (order.units > 0) return;
    this.open--;
    // Filled orders wait in the expiry heap until their time; drop them once they outnumber the open ones.
    if (this.expiries.size > 2 * this.open + 1024) this.expiries.retain((e) => e.order.resting);
  }

  private expire(d: BlockDraft): void {
    const now = this.clock.nowMs;
    for (let next = this.expiries.peek(); next !== undefined && next.atMs <= now; next = this.expiries.peek()) {
      this.expiries.pop();
      const { order } = next;
      if (!order.resting) continue;
      this.books.of(order.market).remove(order);
      this.open--;
      this.desk.status(d, order.owner, this.desk.hash(), order.builder, 'canceled', leftOf(order.wire, order.market, order.units));
    }
  }

  /** Orders the mid has reached are filled at their price (makers' ladders never get there: they are pulled first). */
  private fillReached(d: BlockDraft, market: Market): void {
    const book = this.books.of(market);
    const bid = book.bestPx('B');
    const ask = book.bestPx('A');
    if ((bid === undefined || bid < market.ticks) && (ask === undefined || ask > market.ticks)) return;
    for (let bid = book.best('B'); bid?.keeper === this && bid.pxTicks >= market.ticks; bid = book.best('B'))
      this.matcher.takeWhole(d, this.random.pick(this.parties.makers), bid);
    for (let ask = book.best('A'); ask?.keeper === this && ask.pxTicks <= market.ticks; ask = book.best('A'))
      this.matcher.takeWhole(d, this.random.pick(this.parties.makers), ask);
  }

  private place(d: BlockDraft): void {
    const { random, desk } = this;
    const owner = random.pick(this.parties.traders);
    const market = random.pick(this.parties.markets);
    const side = random.chance(0.5) ? 'B' : 'A';
    const distance = Math.max(1, Math.round(market.ticks * random.inRanges(DISTANCES)));
    const pxTicks = Math.max(1, side === 'B' ? market.ticks - distance : market.ticks + distance);
    const units = Math.max(1, market.unitsFor(Math.max(MIN_NOTIONAL * 1.2, owner.profile.targetEquity * random.between(0.02, 0.3))));
    const wire = desk.limitOrder(market, side, pxTicks, units, random.chance(0.7) ? 'Gtc' : 'Alo', desk.cloid(0.3));
    const builder: WireBuilder | null = random.chance(0.1) ? { b: random.pick(this.parties.builders), f: BUILDER_FEE_TENTHS_BP } : null;
    const order: RestingOrder = { owner, market, side, pxTicks, origUnits: units, units, wire, builder, keeper: this, resting: true };
    desk.status(d, owner, desk.hash(), builder, 'open', wire);
    this.books.of(market).add(order);
    this.expiries.push({ atMs: this.clock.nowMs + Math.round(random.inRanges(LIFETIMES)), order });
    this.open++;
  }
}
