import type { BlockDraft } from './block-draft.js';
import type { Market } from './market-book.js';
import type { Side } from './side.js';
import type { SeededRandom } from './seeded-random.js';
import type { Wallet } from './wallet-book.js';
import { unitsToDecimal } from './wire-format.js';
import type { WireBuilder, WireOrder, WireOrderStatus } from './wire-event.types.js';
import { orderStatusJson } from './wire-json.js';
import type { ExchangeClock } from './simulator.types.js';

/** Order ids, transaction hashes and the order statuses every part of the simulator writes. */
export class OrderDesk {
  private oid = 300_000_000_000;

  constructor(
    private readonly random: SeededRandom,
    private readonly clock: ExchangeClock,
  ) {}

  nextOid(): number {
    return ++this.oid;
  }

  hash(): string {
    return `0x${this.random.hex(64)}`;
  }

  cloid(probability: number): string | null {
    return this.random.chance(probability) ? `0x${this.random.hex(32)}` : null;
  }

  limitOrder(market: Market, side: Side, limitTicks: number, units: number, tif: WireOrder['tif'], cloid: string | null): WireOrder {
    const sz = unitsToDecimal(units, market.spec.szDecimals);
    return {
      coin: market.coin,
      side,
      limitPx: market.pxText(limitTicks),
      sz,
      oid: this.nextOid(),
      timestamp: this.clock.nowMs,
      triggerCondition: 'N/A',
      isTrigger: false,
      triggerPx: '0.0',
      children: [],
      isPositionTpsl: false,
      reduceOnly: false,
      orderType: 'Limit',
      origSz: sz,
      tif,
      cloid,
    };
  }

  status(d: BlockDraft, wallet: Wallet, hash: string | null, builder: WireBuilder | null, status: WireOrderStatus, order: WireOrder): void {
    d.addJson('node_order_statuses_by_block', orderStatusJson(d.time, wallet.address, hash, builder, status, order));
  }
}

/** The order with `units` left (origSz stays what was placed). */
export function leftOf(order: WireOrder, market: Market, units: number): WireOrder {
  return { ...order, sz: unitsToDecimal(units, market.spec.szDecimals) };
}
