import type { TwapState } from '../twap/twap-status.types.js';
import type { BlockDraft } from './block-draft.js';
import { hlDecimalOf } from './fixed-decimal.js';
import type { Market } from './market-book.js';
import type { MarketOrdersWriter } from './market-orders.writer.js';
import type { OrderDesk } from './order-desk.js';
import type { OrderMatcher } from './order-matching.js';
import type { SeededRandom } from './seeded-random.js';
import type { Side } from './side.js';
import { MONEY_DP, type Wallet } from './wallet-book.js';
import { unitsToDecimal, ZERO_HASH } from './wire-format.js';
import type { ExchangeClock } from './simulator.types.js';

const TWAP_SLICE_MS = 30_000;
// Fixed rotation rather than a draw, so any run with a handful of TWAPs shows every ending.
const TWAP_ENDINGS = ['finished', 'terminated', 'finished', 'error', 'finished', 'terminated', 'error'] as const;

interface ActiveTwap {
  id: number;
  owner: Wallet;
  market: Market;
  side: Side;
  sliceUnits: number;
  totalUnits: number;
  minutes: number;
  randomize: boolean;
  startedMs: number;
  stopAfter: number;
  ending: (typeof TWAP_ENDINGS)[number];
  slicesDone: number;
  executedUnits: number;
  /** In units of 10^-(pxDecimals + szDecimals) of the market: exact. */
  executedNtl: bigint;
  nextSliceMs: number;
}

/** TWAP orders: activated, sliced into a market order every 30 s, and ended by the rotation of endings. */
export class TwapOrdersWriter {
  private twapId = 1_000_000;
  private readonly twaps: ActiveTwap[] = [];

  constructor(
    private readonly random: SeededRandom,
    private readonly desk: OrderDesk,
    private readonly matcher: OrderMatcher,
    private readonly marketOrders: MarketOrdersWriter,
    private readonly clock: ExchangeClock,
  ) {}

  start(d: BlockDraft, owner: Wallet, market: Market): void {
    const { side, units } = this.marketOrders.takerSize(owner, market);
    const minutes = this.random.int(5, 30);
    const slices = (minutes * 60_000) / TWAP_SLICE_MS;
    const sliceUnits = Math.floor(units / slices);
    if (sliceUnits < 1) return;
    const id = ++this.twapId;
    const ending = TWAP_ENDINGS[id % TWAP_ENDINGS.length]!;
    const twap: ActiveTwap = {
      id,
      owner,
      market,
      side,
      sliceUnits,
      totalUnits: sliceUnits * slices,
      minutes,
      randomize: this.random.chance(0.3),
      startedMs: this.clock.nowMs,
      stopAfter: ending === 'finished' ? slices : ending === 'terminated' ? Math.floor(slices / 2) : Math.max(1, Math.floor(slices / 3)),
      ending,
      slicesDone: 0,
      executedUnits: 0,
      executedNtl: 0n,
      nextSliceMs: this.clock.nowMs + TWAP_SLICE_MS,
    };
    this.twaps.push(twap);
    d.addTwapStatus(id, this.state(twap), 'activated');
  }

  /** Every block: the slices that are due, and the statuses of the TWAPs they end. */
  slices(d: BlockDraft): void {
    for (let i = 0; i < this.twaps.length;) {
      const t = this.twaps[i]!;
      if (t.nextSliceMs > this.clock.nowMs) {
        i++;
        continue;
      }
      // A slice is a market order into the book: the resting orders nearest the mid take it.
      const executions = this.matcher.take(d, {
        taker: t.owner,
        market: t.market,
        side: t.side,
        units: t.sliceUnits,
        oid: this.desk.nextOid(),
        cloid: null,
        limitTicks: t.market.ticksAt(t.side === 'B' ? 0.01 : -0.01),
        touchTicks: Math.max(1, t.market.ticks + (t.side === 'B' ? 1 : -1)),
        touchUnits: 0,
        sweepUnits: t.sliceUnits,
        // TWAP slices carry the all-zero hash on both sides, as hl-node writes them.
        hash: ZERO_HASH,
        twapId: t.id,
        builder: null,
      });
      t.slicesDone++;
      t.executedUnits += t.sliceUnits;
      for (const e of executions) t.executedNtl += BigInt(e.pxTicks) * BigInt(e.units);
      t.nextSliceMs += TWAP_SLICE_MS;
      if (t.slicesDone < t.stopAfter) {
        i++;
        continue;
      }
      this.twaps.splice(i, 1);
      d.addTwapStatus(t.id, this.state(t), t.ending === 'error' ? { error: 'Insufficient margin to place order.' } : t.ending);
    }
  }

  private state(t: ActiveTwap): TwapState {
    const { spec } = t.market;
    return {
      coin: t.market.coin,
      user: t.owner.address,
      side: t.side,
      sz: unitsToDecimal(t.totalUnits, spec.szDecimals),
      executedSz: unitsToDecimal(t.executedUnits, spec.szDecimals),
      executedNtl: hlDecimalOf(t.executedNtl, spec.pxDecimals + spec.szDecimals, MONEY_DP),
      minutes: t.minutes,
      reduceOnly: false,
      randomize: t.randomize,
      timestamp: t.startedMs,
    };
  }
}
