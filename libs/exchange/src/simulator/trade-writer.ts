import type { BlockDraft } from './block-draft.js';
import { hlDecimalOf, rescale, type Rounding } from './fixed-decimal.js';
import type { Market } from './market-book.js';
import { opposite, type Side } from './side.js';
import type { SeededRandom } from './seeded-random.js';
import { MONEY_DP, type Wallet, type WalletBook } from './wallet-book.js';
import { unitsToDecimal } from './wire-format.js';
import type { WireFill } from './wire-event.types.js';
import { fillJson } from './wire-json.js';
import type { ExchangeClock } from './simulator.types.js';

/** A fee rate of `units` × 10^-dp of the notional. */
interface FeeRate {
  units: bigint;
  dp: number;
}

const TAKER_FEE: FeeRate = { units: 45n, dp: 5 };
const MAKER_REBATE: FeeRate = { units: 2n, dp: 5 };
const BUILDER_FEE: FeeRate = { units: 1n, dp: 4 };
export const BUILDER_FEE_TENTHS_BP = 10;

export interface TradeRequest {
  taker: Wallet;
  maker: Wallet;
  market: Market;
  /** The taker's side. */
  side: Side;
  units: number;
  pxTicks: number;
  hash: string;
  takerOid: number;
  makerOid: number;
  twapId: number | null;
  builder: string | null;
  takerCloid: string | null;
  makerCloid: string | null;
  liquidation: { liquidatedUser: string; markPx: string; method: string } | null;
}

/** Writes trades as hl-node does, two fills sharing a tid, and moves both wallets with them. */
export class TradeWriter {
  private tid = 100_000_000_000_000;

  constructor(
    private readonly random: SeededRandom,
    private readonly wallets: WalletBook,
    private readonly clock: ExchangeClock,
  ) {}

  trade(d: BlockDraft, t: TradeRequest): void {
    const { market } = t;
    // The notional in units of 10^-(pxDecimals + szDecimals): exact, as every fee is taken from it.
    const notional = BigInt(t.pxTicks) * BigInt(t.units);
    const notionalDp = market.spec.pxDecimals + market.spec.szDecimals;
    const feeOf = (rate: FeeRate, rounding: Rounding) => rescale(notional * rate.units, notionalDp + rate.dp, MONEY_DP, rounding);
    const builderFee = t.builder === null ? null : feeOf(BUILDER_FEE, 'up');
    const takerFee = feeOf(TAKER_FEE, 'halfUp') + (builderFee ?? 0n);
    const makerFee = -feeOf(MAKER_REBATE, 'halfUp');
    const tid = (this.tid += this.random.int(1, 5000));
    const sides: [Wallet, Side, boolean, number, bigint, string | null][] = [
      [t.taker, t.side, true, t.takerOid, takerFee, t.takerCloid],
      [t.maker, opposite(t.side), false, t.makerOid, makerFee, t.makerCloid],
    ];
    const px = market.pxText(t.pxTicks);
    const sz = unitsToDecimal(t.units, market.spec.szDecimals);
    for (const [wallet, side, crossed, oid, fee, cloid] of sides) {
      const effect = this.wallets.applyFill(wallet, market, side, t.pxTicks, t.units, fee);
      const fill: WireFill = {
        coin: market.coin,
        px,
        sz,
        side,
        time: this.clock.nowMs,
        startPosition: effect.startPosition,
        dir: effect.dir,
        closedPnl: effect.closedPnl,
        hash: t.hash,
        oid,
        crossed,
        fee: hlDecimalOf(fee, MONEY_DP),
        tid,
        feeToken: 'USDC',
        twapId: crossed ? t.twapId : null,
      };
      if (cloid !== null) fill.cloid = cloid;
      if (t.liquidation !== null) fill.liquidation = t.liquidation;
      if (crossed && t.builder !== null && builderFee !== null) {
        fill.builder = t.builder;
        fill.builderFee = hlDecimalOf(builderFee, MONEY_DP);
      }
      d.addJson('node_fills_by_block', fillJson(wallet.address, fill));
    }
  }
}
