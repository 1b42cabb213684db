import type { BlockDraft } from './block-draft.js';
import type { Market } from './market-book.js';
import { leftOf, type OrderDesk } from './order-desk.js';
import { opposite, type Side } from './side.js';
import type { RestingBook, RestingBooks, RestingOrder } from './resting-book.js';
import type { SeededRandom } from './seeded-random.js';
import type { TradeRequest, TradeWriter } from './trade-writer.js';
import type { Wallet } from './wallet-book.js';

/** Resting orders one taker order may fill at most: a bound on the lines one trade writes. */
const MAX_RESTING_PER_TAKER = 3;

export interface TakerOrder {
  taker: Wallet;
  market: Market;
  side: Side;
  units: number;
  oid: number;
  cloid: string | null;
  /** Resting orders beyond this price are not taken. */
  limitTicks: number;
  /** Price of the in-block maker quote that meets the taker (a fast maker's ALO order, placed and filled in the block). */
  touchTicks: number;
  /** What that quote offers before the resting orders behind it are swept; it also takes whatever the book does not. */
  touchUnits: number;
  /** The most the resting orders behind the touch give (how far into the book the taker goes). */
  sweepUnits: number;
  hash: string;
  twapId: number | null;
  builder: string | null;
}

export interface Execution {
  pxTicks: number;
  units: number;
}

interface Leg {
  order: RestingOrder;
  units: number;
}

type QuotedTrade = Omit<TradeRequest, 'maker' | 'makerOid' | 'makerCloid'>;

const sum = (legs: Leg[]): number => legs.reduce((total, leg) => total + leg.units, 0);

/**
 * Matches taker orders against the resting books in price then time priority. The best level of a
 * side is a heap lookup, so a taker costs O(log n) in the book size whatever the book holds.
 */
export class OrderMatcher {
  constructor(
    private readonly books: RestingBooks,
    private readonly trades: TradeWriter,
    private readonly desk: OrderDesk,
    private readonly makers: readonly Wallet[],
    private readonly random: SeededRandom,
  ) {}

  /**
   * Fills a taker order completely: resting orders priced better than the touch first, then the in-block
   * quote at the touch, then resting orders behind it up to the order's limit. Self-trades are not
   * matched: the sweep stops at the taker's own order.
   */
  take(d: BlockDraft, t: TakerOrder): Execution[] {
    const book = this.books.of(t.market);
    const buying = t.side === 'B';
    const ahead = this.sweep(book, t, t.units, MAX_RESTING_PER_TAKER, (px) => (buying ? px < t.touchTicks : px > t.touchTicks));
    const afterAhead = t.units - sum(ahead);
    const toSweep = Math.min(Math.max(0, afterAhead - t.touchUnits), t.sweepUnits);
    const behind = this.sweep(book, t, toSweep, MAX_RESTING_PER_TAKER - ahead.length, (px) =>
      buying ? px <= t.limitTicks : px >= t.limitTicks,
    );
    const atTouch = afterAhead - sum(behind);

    // In price order, so the fills read as one order walking the book.
    const executions: Execution[] = [];
    const base = {
      taker: t.taker,
      market: t.market,
      side: t.side,
      hash: t.hash,
      takerOid: t.oid,
      takerCloid: t.cloid,
      twapId: t.twapId,
      builder: t.builder,
      liquidation: null,
    };
    for (const { order, units } of ahead) {
      this.trades.trade(d, {
        ...base,
        maker: order.owner,
        units,
        pxTicks: order.pxTicks,
        makerOid: order.wire.oid,
        makerCloid: order.wire.cloid,
      });
      executions.push({ pxTicks: order.pxTicks, units });
    }
    if (atTouch > 0) {
      this.quoted(d, this.quoteMaker(t.taker), { ...base, units: atTouch, pxTicks: t.touchTicks });
      executions.push({ pxTicks: t.touchTicks, units: atTouch });
    }
    for (const { order, units } of behind) {
      this.trades.trade(d, {
        ...base,
        maker: order.owner,
        units,
        pxTicks: order.pxTicks,
        makerOid: order.wire.oid,
        makerCloid: order.wire.cloid,
      });
      executions.push({ pxTicks: order.pxTicks, units });
    }
    for (const { order } of ahead) this.settle(d, order);
    for (const { order } of behind) this.settle(d, order);
    return executions;
  }

  /**
   * A resting order filled whole by `taker` at its own price (its price was reached): the taker's IOC
   * order and both statuses.
   */
  takeWhole(d: BlockDraft, taker: Wallet, order: RestingOrder): void {
    const { market } = order;
    const side = opposite(order.side);
    const takerOrder = this.desk.limitOrder(market, side, order.pxTicks, order.units, 'Ioc', null);
    this.trades.trade(d, {
      taker,
      maker: order.owner,
      market,
      side,
      units: order.units,
      pxTicks: order.pxTicks,
      hash: this.desk.hash(),
      takerOid: takerOrder.oid,
      makerOid: order.wire.oid,
      twapId: null,
      builder: null,
      takerCloid: null,
      makerCloid: order.wire.cloid,
      liquidation: null,
    });
    order.units = 0;
    this.books.of(market).remove(order);
    this.settle(d, order);
    this.desk.status(d, taker, null, null, 'filled', leftOf(takerOrder, market, 0));
  }

  /**
   * A trade against a maker's ALO order placed in the same block. The quote is sometimes bigger than the
   * trade: the rest is canceled afterwards, so the canceled status shows a reduced sz with the full origSz.
   */
  quoted(d: BlockDraft, maker: Wallet, t: QuotedTrade): void {
    const { market } = t;
    const quoteUnits = this.random.chance(0.3) ? t.units + this.random.int(1, t.units) : t.units;
    const quote = this.desk.limitOrder(market, opposite(t.side), t.pxTicks, quoteUnits, 'Alo', this.desk.cloid(0.5));
    this.desk.status(d, maker, this.desk.hash(), null, 'open', quote);
    this.trades.trade(d, { ...t, maker, makerOid: quote.oid, makerCloid: quote.cloid });
    if (quoteUnits === t.units) this.desk.status(d, maker, null, null, 'filled', leftOf(quote, market, 0));
    else this.desk.status(d, maker, this.desk.hash(), null, 'canceled', leftOf(quote, market, quoteUnits - t.units));
  }

  private quoteMaker(taker: Wallet): Wallet {
    const maker = this.random.pick(this.makers);
    return maker === taker ? this.makers[(this.makers.indexOf(maker) + 1) % this.makers.length]! : maker;
  }

  /** Takes up to `units` from the best orders that pass `priced`, at most `maxOrders` of them. Books are reduced at once. */
  private sweep(book: RestingBook, t: TakerOrder, units: number, maxOrders: number, priced: (px: number) => boolean): Leg[] {
    const legs: Leg[] = [];
    while (units > 0 && legs.length < maxOrders) {
      const best = book.best(opposite(t.side));
      if (!best || best.owner === t.taker || !priced(best.pxTicks)) break;
      const take = Math.min(units, best.units);
      best.units -= take;
      if (best.units === 0) book.remove(best);
      legs.push({ order: best, units: take });
      units -= take;
    }
    return legs;
  }

  /** After its fills: a filled order's status, then its keeper's turn. */
  private settle(d: BlockDraft, order: RestingOrder): void {
    if (order.units === 0) this.desk.status(d, order.owner, null, order.builder, 'filled', leftOf(order.wire, order.market, 0));
    order.keeper.afterFill(d, order);
  }
}
