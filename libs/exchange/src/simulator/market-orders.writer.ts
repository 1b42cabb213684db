import type { BlockDraft } from './block-draft.js';
import type { Market } from './market-book.js';
import { leftOf, type OrderDesk } from './order-desk.js';
import type { OrderMatcher, TakerOrder } from './order-matching.js';
import type { Ranges, SeededRandom } from './seeded-random.js';
import type { Side } from './side.js';
import { BUILDER_FEE_TENTHS_BP } from './trade-writer.js';
import type { Wallet, WalletBook } from './wallet-book.js';

/**
 * USD the in-block maker quote at the touch offers a market order before the resting orders behind it
 * are swept: [low, high, weight] ranges, so large orders walk into the makers' ladders and users' orders.
 */
const TOUCH_NOTIONAL: Ranges = [
  [25_000, 100_000, 0.3],
  [100_000, 500_000, 0.4],
  [500_000, 3_000_000, 0.3],
];

/** USD a taker takes at most from the resting orders behind the touch: mostly part of the nearest level. */
const SWEEP_NOTIONAL: Ranges = [
  [500, 10_000, 0.6],
  [10_000, 60_000, 0.4],
];

/** A taker order that sweeps the book at once; how deep the book is where it meets it is drawn by `execute`. */
export type MarketOrder = Omit<TakerOrder, 'touchUnits' | 'sweepUnits' | 'hash' | 'twapId'>;

/** Users' market orders and the orders the exchange rejects for margin; sizes a taker by the wallet's leverage. */
export class MarketOrdersWriter {
  constructor(
    private readonly random: SeededRandom,
    private readonly desk: OrderDesk,
    private readonly matcher: OrderMatcher,
    private readonly wallets: WalletBook,
    private readonly builders: readonly string[],
  ) {}

  /** How many units a taker trade would be, or 0: reduce or flip an open position, or open within the wallet's leverage. */
  takerSize(wallet: Wallet, market: Market): { side: Side; units: number } {
    const held = wallet.positionUnits(market.coin);
    const equity = this.wallets.equityNumber(wallet);
    if (held !== 0 && this.random.chance(0.45)) {
      const fraction = this.random.pick([0.25, 0.5, 1, 1, 1.5]);
      return { side: held > 0 ? 'A' : 'B', units: Math.max(1, Math.round(Math.abs(held) * fraction)) };
    }
    const capacity = equity * wallet.profile.leverage - this.wallets.notional(wallet);
    if (equity <= 1 || capacity <= equity * 0.05) return { side: 'B', units: 0 };
    const degen = wallet.profile.leverage > 10;
    const notional = capacity * (degen ? this.random.between(0.6, 0.95) : this.random.between(0.1, 0.5));
    return { side: this.random.chance(0.5) ? 'B' : 'A', units: market.unitsFor(notional) };
  }

  /** A market order: an IOC at 1 % through the mid, filled whole against the touch and the books behind it. */
  marketTrade(d: BlockDraft, taker: Wallet, market: Market): void {
    const { side, units } = this.takerSize(taker, market);
    if (units <= 0) return;
    const slip = this.random.int(0, 2);
    const touchTicks = Math.max(1, side === 'B' ? market.ticks + slip : market.ticks - slip);
    const builder = this.random.chance(0.2) ? this.random.pick(this.builders) : null;
    const wireBuilder = builder === null ? null : { b: builder, f: BUILDER_FEE_TENTHS_BP };
    const limitTicks = market.ticksAt(side === 'B' ? 0.01 : -0.01);
    const order = this.desk.limitOrder(market, side, limitTicks, units, 'Ioc', this.desk.cloid(0.3));
    this.execute(d, { taker, market, side, units, oid: order.oid, cloid: order.cloid, limitTicks, touchTicks, builder });
    this.desk.status(d, taker, null, wireBuilder, 'filled', leftOf(order, market, 0));
  }

  /** An order far beyond the wallet's margin: hl-node reports it with a rejection status and no fill. */
  rejectedOrder(d: BlockDraft, wallet: Wallet, market: Market): void {
    const equity = Math.max(1000, this.wallets.equityNumber(wallet));
    const units = Math.max(1, market.unitsFor(equity * 60));
    const side: Side = this.random.chance(0.5) ? 'B' : 'A';
    const order = this.desk.limitOrder(market, side, market.ticksAt(side === 'B' ? 0.001 : -0.001), units, 'Gtc', this.desk.cloid(0.3));
    this.desk.status(d, wallet, null, null, 'perpMarginRejected', order);
  }

  /**
   * Fills `order` whole. The touch's depth, the sweep's and the hash are drawn here, in this order, after
   * whatever the caller drew: every byte written after them depends on that order.
   */
  execute(d: BlockDraft, order: MarketOrder): void {
    this.matcher.take(d, {
      ...order,
      touchUnits: this.unitsIn(order.market, TOUCH_NOTIONAL),
      sweepUnits: this.unitsIn(order.market, SWEEP_NOTIONAL),
      hash: this.desk.hash(),
      twapId: null,
    });
  }

  /** Units of a notional drawn from `ranges`, at least one. */
  private unitsIn(market: Market, ranges: Ranges): number {
    return Math.max(1, market.unitsFor(this.random.inRanges(ranges)));
  }
}
