import type { BlockDraft } from './block-draft.js';
import type { Market, MarketBook } from './market-book.js';
import type { MarketOrdersWriter } from './market-orders.writer.js';
import { leftOf, type OrderDesk } from './order-desk.js';
import type { RestingOrder } from './resting-book.js';
import type { SeededRandom } from './seeded-random.js';
import type { Side } from './side.js';
import { BUILDER_FEE_TENTHS_BP } from './trade-writer.js';
import type { Wallet } from './wallet-book.js';
import type { WireBuilder, WireOrder } from './wire-event.types.js';
import type { ExchangeClock } from './simulator.types.js';

const HOUR_MS = 3_600_000;
const TRIGGER_TYPES = ['Stop Market', 'Stop Limit', 'Take Profit Market', 'Take Profit Limit'] as const;

interface PendingTrigger {
  wallet: Wallet;
  market: Market;
  order: WireOrder;
  units: number;
  limitTicks: number;
  above: boolean;
  triggerTicks: number;
  expiresMs: number;
  builder: WireBuilder | null;
}

/** Stop and take-profit orders on open positions: placed, then triggered when the price reaches them or canceled when they expire. */
export class TriggerOrdersWriter {
  private readonly pending: PendingTrigger[] = [];

  constructor(
    private readonly random: SeededRandom,
    private readonly desk: OrderDesk,
    private readonly markets: MarketBook,
    private readonly marketOrders: MarketOrdersWriter,
    private readonly builders: readonly string[],
    private readonly clock: ExchangeClock,
  ) {}

  /** The orders not triggered yet, with the size they would close. */
  open(): Pick<RestingOrder, 'owner' | 'wire' | 'market' | 'units'>[] {
    return this.pending.map((t) => ({ owner: t.wallet, wire: t.order, market: t.market, units: t.units }));
  }

  place(d: BlockDraft, wallet: Wallet): void {
    const held = [...wallet.positions.values()];
    if (held.length === 0) return;
    const market = this.markets.get(this.random.pick(held).coin);
    const units = Math.abs(wallet.positionUnits(market.coin));
    const long = units > 0 && wallet.positionUnits(market.coin) > 0;
    const orderType = this.random.pick(TRIGGER_TYPES);
    const stop = orderType.startsWith('Stop');
    // A stop sits on the losing side of the position, a take-profit on the winning side.
    const above = stop ? !long : long;
    const distance = this.random.between(0.002, 0.01);
    const triggerTicks = market.ticksAt(above ? distance : -distance);
    const side: Side = long ? 'A' : 'B';
    const isMarket = orderType.endsWith('Market');
    const slippage = isMarket ? 0.1 : 0.002;
    const limitTicks = Math.max(1, Math.round(triggerTicks * (side === 'B' ? 1 + slippage : 1 - slippage)));
    const size = this.random.chance(0.5) ? units : Math.max(1, Math.floor(units / 2));
    const triggerPx = market.pxText(triggerTicks);
    const base = this.desk.limitOrder(market, side, limitTicks, size, null, this.desk.cloid(0.3));
    const order: WireOrder = {
      ...base,
      triggerCondition: `Price ${above ? 'above' : 'below'} ${triggerPx}`,
      isTrigger: true,
      triggerPx,
      reduceOnly: true,
      orderType,
    };
    const builder = this.random.chance(0.2) ? { b: this.random.pick(this.builders), f: BUILDER_FEE_TENTHS_BP } : null;
    const expiresMs = this.clock.nowMs + this.random.int(30 * 60_000, 3 * HOUR_MS);
    this.pending.push({ wallet, market, order, units: size, limitTicks, above, triggerTicks, expiresMs, builder });
    this.desk.status(d, wallet, this.desk.hash(), builder, 'open', order);
  }

  /** Every block: the orders whose price was reached are triggered, the expired ones canceled. */
  fire(d: BlockDraft): void {
    for (let i = 0; i < this.pending.length;) {
      const t = this.pending[i]!;
      const reached = t.above ? t.market.ticks >= t.triggerTicks : t.market.ticks <= t.triggerTicks;
      if (!reached && this.clock.nowMs < t.expiresMs) {
        i++;
        continue;
      }
      this.pending.splice(i, 1);
      const { wallet, market, order, builder } = t;
      if (!reached) {
        this.desk.status(d, wallet, this.desk.hash(), builder, 'canceled', order);
        continue;
      }
      this.desk.status(d, wallet, null, builder, 'triggered', order);
      // Reduce-only: it can only shrink what is still open on the closing side; the rest is canceled.
      const held = wallet.positionUnits(market.coin);
      const reducible = order.side === 'A' ? Math.max(0, held) : Math.max(0, -held);
      const units = Math.min(t.units, reducible);
      if (units > 0) {
        this.marketOrders.execute(d, {
          taker: wallet,
          market,
          side: order.side,
          units,
          oid: order.oid,
          cloid: order.cloid,
          limitTicks: t.limitTicks,
          touchTicks: market.ticks,
          builder: builder?.b ?? null,
        });
      }
      const status = units === t.units ? 'filled' : 'reduceOnlyCanceled';
      this.desk.status(d, wallet, null, builder, status, leftOf(order, market, t.units - units));
    }
  }
}
