import type { BlockDraft } from './block-draft.js';
import type { Market } from './market-book.js';
import { MinHeap } from './min-heap.js';
import type { WireBuilder, WireOrder } from './wire-event.types.js';
import type { Side } from './side.js';
import type { Wallet } from './wallet-book.js';

/** Whoever placed a resting order and decides what follows a fill of it (a maker re-quotes, a user does not). */
export interface OrderKeeper {
  /**
   * Called once the fills of one taker order are written: `order.units` is what rests now, 0 when it
   * was filled (it is then out of the book and its `filled` status written).
   */
  afterFill(d: BlockDraft, order: RestingOrder): void;
}

/** A limit order resting in the book; prices and sizes in integer ticks and units. */
export interface RestingOrder {
  readonly owner: Wallet;
  readonly market: Market;
  readonly side: Side;
  readonly pxTicks: number;
  readonly origUnits: number;
  /** Units still resting (origUnits minus fills). */
  units: number;
  /** The order as its `open` status wrote it; every later status is this with the size left. */
  readonly wire: WireOrder;
  readonly builder: WireBuilder | null;
  readonly keeper: OrderKeeper;
  /** False once it left the book (filled or canceled), so lazy indexes can skip it. */
  resting: boolean;
}

/** Level prices, smallest first. */
export class LevelHeap extends MinHeap<number> {
  protected less(a: number, b: number): boolean {
    return a < b;
  }
}

/**
 * One side of one market: price levels (FIFO sets, so time priority holds within a price) and a heap of
 * level prices for the best one. Emptied levels stay in the heap until they reach its top.
 */
export class BookSide {
  private readonly levels = new Map<number, Set<RestingOrder>>();
  /** Level prices signed so the best is the smallest: asks as they are, bids negated. */
  private readonly heap = new LevelHeap();
  count = 0;

  constructor(private readonly sign: 1 | -1) {}

  add(order: RestingOrder): void {
    let level = this.levels.get(order.pxTicks);
    if (!level) {
      this.levels.set(order.pxTicks, (level = new Set()));
      this.heap.push(this.sign * order.pxTicks);
    }
    level.add(order);
    this.count++;
  }

  remove(order: RestingOrder): void {
    const level = this.levels.get(order.pxTicks);
    if (!level?.delete(order)) throw new Error(`order ${order.wire.oid} is not in the book`);
    this.count--;
    if (level.size > 0) return;
    this.levels.delete(order.pxTicks);
    // Far levels rarely reach the top; rebuild once dead prices outnumber live ones.
    if (this.heap.size > 2 * this.levels.size + 64) this.heap.rebuild([...this.levels.keys()].map((px) => this.sign * px));
  }

  *orders(): Generator<RestingOrder> {
    for (const level of this.levels.values()) yield* level;
  }

  /** The best live level's price (dead heap entries on top are dropped on the way). */
  bestPx(): number | undefined {
    for (let top = this.heap.peek(); top !== undefined; top = this.heap.peek()) {
      if (this.levels.has(this.sign * top)) return this.sign * top;
      this.heap.pop();
    }
    return undefined;
  }

  best(): RestingOrder | undefined {
    const px = this.bestPx();
    return px === undefined ? undefined : this.levels.get(px)!.values().next().value;
  }
}

/** The resting limit orders of one market, both sides. */
export class RestingBook {
  private readonly bids = new BookSide(-1);
  private readonly asks = new BookSide(1);

  private of(side: Side): BookSide {
    return side === 'B' ? this.bids : this.asks;
  }

  add(order: RestingOrder): void {
    this.of(order.side).add(order);
  }

  /** Takes the order out of the book (filled or canceled). */
  remove(order: RestingOrder): void {
    this.of(order.side).remove(order);
    order.resting = false;
  }

  /** Price of the highest bid or lowest ask. */
  bestPx(side: Side): number | undefined {
    return this.of(side).bestPx();
  }

  /** Highest bid or lowest ask, the oldest at that price first. */
  best(side: Side): RestingOrder | undefined {
    return this.of(side).best();
  }

  get size(): number {
    return this.bids.count + this.asks.count;
  }

  *orders(): Generator<RestingOrder> {
    yield* this.bids.orders();
    yield* this.asks.orders();
  }
}

/** Every market's resting book. */
export class RestingBooks {
  private readonly books = new Map<string, RestingBook>();

  of(market: Market): RestingBook {
    let book = this.books.get(market.coin);
    if (!book) this.books.set(market.coin, (book = new RestingBook()));
    return book;
  }

  *orders(): Generator<RestingOrder> {
    for (const book of this.books.values()) yield* book.orders();
  }
}
