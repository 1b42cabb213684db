import type { BlockDraft } from './block-draft.js';
import type { Market } from './market-book.js';
import { leftOf, type OrderDesk } from './order-desk.js';
import type { Side } from './side.js';
import type { OrderKeeper, RestingBooks, RestingOrder } from './resting-book.js';
import type { SeededRandom } from './seeded-random.js';
import type { Wallet } from './wallet-book.js';

/** Share of the book setting held in makers' ladders; ordinary wallets' limit orders make up the rest. */
const LADDER_SHARE = 0.7;
/** Levels per ladder side at most, so a very large book is mostly users' orders rather than absurdly deep ladders. */
const MAX_LEVELS = 150;
const MIN_LEVELS = 3;

/**
 * How one maker quotes, in basis points of the price. The nearest level is kept at least `gapBps` from
 * the mid, and is only re-quoted nearer once it is more than `gapBps + slackBps` away: without that
 * slack a ladder would follow every tick of the random walk, writing thousands of statuses an hour.
 */
interface LadderStyle {
  gapBps: number;
  slackBps: number;
  stepBps: number;
  /** USD notional of a level at the gap; each step farther adds `growth` of it. */
  baseNotional: number;
  growth: number;
}

const STYLES: readonly LadderStyle[] = [
  { gapBps: 4, slackBps: 120, stepBps: 15, baseNotional: 40_000, growth: 0.06 },
  { gapBps: 12, slackBps: 150, stepBps: 18, baseNotional: 80_000, growth: 0.05 },
  { gapBps: 25, slackBps: 250, stepBps: 30, baseNotional: 150_000, growth: 0.04 },
];

/** Levels per ladder side for a book of `bookOrders` open orders quoted by `ladderSides` ladder sides. */
export function ladderLevels(bookOrders: number, ladderSides: number): number {
  return Math.max(MIN_LEVELS, Math.min(MAX_LEVELS, Math.round((bookOrders * LADDER_SHARE) / ladderSides)));
}

interface LadderContext {
  desk: OrderDesk;
  books: RestingBooks;
  random: SeededRandom;
  /** Bounds of a side's level count: a side shrinks as the mid comes at it and grows as it leaves, between these. */
  minLevels: number;
  maxLevels: number;
}

/** One maker's quotes on one side of one market: contiguous levels `step` apart, nearest the mid first. */
export class Ladder implements OrderKeeper {
  readonly orders: RestingOrder[] = [];
  /** +1 for asks (above the mid), -1 for bids. */
  private readonly dir: 1 | -1;

  constructor(
    private readonly maker: Wallet,
    private readonly market: Market,
    private readonly side: Side,
    private readonly style: LadderStyle,
    private readonly cx: LadderContext,
  ) {
    this.dir = side === 'A' ? 1 : -1;
  }

  /** Ticks of `bps` at the current price (prices drift a lot over days; a fixed tick count would not). */
  private ticks(bps: number): number {
    return Math.max(1, Math.round((this.market.ticks * bps) / 10_000));
  }

  private distance(pxTicks: number): number {
    return this.dir * (pxTicks - this.market.ticks);
  }

  open(d: BlockDraft, levels: number): void {
    const hash = this.cx.desk.hash();
    let px = this.market.ticks + this.dir * (this.ticks(this.style.gapBps) + this.cx.random.int(0, this.ticks(this.style.slackBps)));
    for (let i = 0; i < levels && px > 0; i++, px += this.dir * this.ticks(this.style.stepBps)) this.orders.push(this.place(d, px, hash));
  }

  /**
   * Pulls levels the mid came too close to (or moved past), and quotes nearer once the nearest level has
   * been left behind; the far end gives or takes a level to stay within the count bounds, in the same
   * action as the near change (a modify: the old oid canceled and a new one opened, as Hyperliquid does).
   */
  requote(d: BlockDraft): void {
    const near = this.orders[0];
    if (near === undefined) return;
    const gap = this.ticks(this.style.gapBps);
    const step = this.ticks(this.style.stepBps);
    const slack = Math.max(step, this.ticks(this.style.slackBps));
    const distance = this.distance(near.pxTicks);
    // Most blocks: the nearest level is still inside its band.
    if (distance >= gap && distance <= gap + slack) return;
    // One action per ladder and block: its statuses share the hash, as a batch of orders and cancels does.
    const hash = this.cx.desk.hash();
    while (this.orders.length > 0 && this.distance(this.orders[0]!.pxTicks) < gap) {
      this.cancel(d, this.orders.shift()!, hash);
      if (this.orders.length >= this.cx.minLevels) continue;
      const far = this.orders.at(-1);
      const px = far ? far.pxTicks + this.dir * step : this.market.ticks + this.dir * (gap + slack);
      this.orders.push(this.place(d, px, hash));
    }
    while (this.distance(this.orders[0]!.pxTicks) > gap + slack) {
      this.orders.unshift(this.place(d, this.orders[0]!.pxTicks - this.dir * step, hash));
      if (this.orders.length > this.cx.maxLevels) this.cancel(d, this.orders.pop()!, hash);
    }
  }

  /** A fill consumed the level: quote it again at the same price, in full (a filled one anew, a nearly eaten one modified). */
  afterFill(d: BlockDraft, order: RestingOrder): void {
    if (order.units > 0 && order.units * 5 >= order.origUnits) return;
    const index = this.orders.indexOf(order);
    if (index < 0) throw new Error(`order ${order.wire.oid} is not in its ladder`);
    const hash = this.cx.desk.hash();
    if (order.units > 0) this.cancel(d, order, hash);
    this.orders[index] = this.place(d, order.pxTicks, hash);
  }

  private place(d: BlockDraft, pxTicks: number, hash: string): RestingOrder {
    const { desk, random } = this.cx;
    const level = Math.max(0, Math.round((this.distance(pxTicks) - this.ticks(this.style.gapBps)) / this.ticks(this.style.stepBps)));
    const notional = this.style.baseNotional * (1 + this.style.growth * level) * random.between(0.85, 1.15);
    const units = Math.max(1, this.market.unitsFor(notional));
    const wire = desk.limitOrder(this.market, this.side, pxTicks, units, 'Alo', desk.cloid(0.5));
    const order: RestingOrder = {
      owner: this.maker,
      market: this.market,
      side: this.side,
      pxTicks,
      origUnits: units,
      units,
      wire,
      builder: null,
      keeper: this,
      resting: true,
    };
    desk.status(d, this.maker, hash, null, 'open', wire);
    this.cx.books.of(this.market).add(order);
    return order;
  }

  private cancel(d: BlockDraft, order: RestingOrder, hash: string): void {
    this.cx.books.of(this.market).remove(order);
    this.cx.desk.status(d, this.maker, hash, null, 'canceled', leftOf(order.wire, this.market, order.units));
  }
}

/**
 * The market makers' quote ladders: every maker quotes every market, several levels a side with sizes
 * growing away from the mid, each maker in its own style (tight and small to wide and deep).
 */
export class MarketMakers {
  private readonly ladders: Ladder[] = [];
  private opened = false;

  constructor(
    makers: readonly Wallet[],
    markets: readonly Market[],
    books: RestingBooks,
    desk: OrderDesk,
    random: SeededRandom,
    private readonly levels: number,
  ) {
    const cx: LadderContext = {
      desk,
      books,
      random,
      minLevels: Math.max(MIN_LEVELS, Math.floor(levels * 0.5)),
      maxLevels: Math.max(MIN_LEVELS + 1, Math.ceil(levels * 1.5)),
    };
    makers.forEach((maker, i) => {
      for (const market of markets)
        for (const side of ['B', 'A'] as const) this.ladders.push(new Ladder(maker, market, side, STYLES[i % STYLES.length]!, cx));
    });
  }

  /** Every block, after the price moved: the first block places every ladder, later ones move them. */
  requote(d: BlockDraft): void {
    if (!this.opened) {
      for (const ladder of this.ladders) ladder.open(d, this.levels);
      this.opened = true;
      return;
    }
    for (const ladder of this.ladders) ladder.requote(d);
  }
}
