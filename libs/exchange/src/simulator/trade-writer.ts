import Big from 'big.js';
import type { BlockDraft } from './block-draft.js';
import type { Market } from './market-book.js';
import { opposite, type Side } from './side.js';
import type { SeededRandom } from './seeded-random.js';
import type { Wallet, WalletBook } from './wallet-book.js';
import { hlDecimal, unitsToBig, unitsToDecimal } from './wire-format.js';

const TAKER_FEE = new Big('0.00045');
const MAKER_REBATE = new Big('0.00002');
const BUILDER_FEE = new Big('0.0001');
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
    private readonly clock: () => number,
  ) {}

  trade(d: BlockDraft, t: TradeRequest): void {
    const { market } = t;
    const px = unitsToBig(t.pxTicks, market.spec.pxDecimals);
    const sz = unitsToBig(t.units, market.spec.szDecimals);
    const notional = px.times(sz);
    const builderFee = t.builder === null ? null : notional.times(BUILDER_FEE).round(6, Big.roundUp);
    const takerFee = notional.times(TAKER_FEE).round(6, Big.roundHalfUp).plus(builderFee ?? 0);
    const makerFee = notional.times(MAKER_REBATE).round(6, Big.roundHalfUp).neg();
    const tid = (this.tid += this.random.int(1, 5000));
    const sides: [Wallet, Side, boolean, number, Big, string | null][] = [
      [t.taker, t.side, true, t.takerOid, takerFee, t.takerCloid],
      [t.maker, opposite(t.side), false, t.makerOid, makerFee, t.makerCloid],
    ];
    for (const [wallet, side, crossed, oid, fee, cloid] of sides) {
      const effect = this.wallets.applyFill(wallet, market.coin, side, px, sz, fee);
      const fill: Record<string, unknown> = {
        coin: market.coin,
        px: market.pxText(t.pxTicks),
        sz: unitsToDecimal(t.units, market.spec.szDecimals),
        side,
        time: this.clock(),
        startPosition: effect.startPosition,
        dir: effect.dir,
        closedPnl: effect.closedPnl,
        hash: t.hash,
        oid,
        crossed,
        fee: hlDecimal(fee, 6),
        tid,
      };
      if (cloid !== null) fill['cloid'] = cloid;
      if (t.liquidation !== null) fill['liquidation'] = t.liquidation;
      fill['feeToken'] = 'USDC';
      fill['twapId'] = crossed ? t.twapId : null;
      if (crossed && t.builder !== null && builderFee !== null) {
        fill['builder'] = t.builder;
        fill['builderFee'] = hlDecimal(builderFee, 6);
      }
      d.add('node_fills_by_block', [wallet.address, fill]);
    }
  }
}
