import type { BlockDraft } from './block-draft.js';
import { hlDecimalOf } from './fixed-decimal.js';
import type { MarketBook } from './market-book.js';
import type { OrderDesk } from './order-desk.js';
import type { OrderMatcher } from './order-matching.js';
import { MONEY_DP, PNL_DP, type WalletBook } from './wallet-book.js';
import { unitsToDecimal } from './wire-format.js';

/**
 * Margin calls: every block, a position whose mark crossed its liquidation price is closed whole by the
 * first maker (the liquidator), with the liquidation named on both fills and a `liquidation` ledger update.
 */
export class LiquidationsWriter {
  constructor(
    private readonly desk: OrderDesk,
    private readonly matcher: OrderMatcher,
    private readonly wallets: WalletBook,
    private readonly markets: MarketBook,
  ) {}

  liquidate(d: BlockDraft): void {
    const liquidator = this.wallets.makers[0]!;
    for (const market of this.markets.markets) {
      const px = market.pxNumber;
      const bounds = this.wallets.liquidationBounds(market.coin);
      if (px > bounds.longMax && px < bounds.shortMin) continue;
      // Most holders are far from liquidation: compare floats first, exact values only for the few that cross.
      const crossed = [...(this.wallets.holders.get(market.coin) ?? [])].filter((w) => {
        const liqPx = w.liquidationPx.get(market.coin);
        if (liqPx === undefined || w === liquidator) return false;
        return w.positions.get(market.coin)!.units > 0 ? px <= liqPx : px >= liqPx;
      });
      for (const victim of crossed) {
        const held = victim.positionUnits(market.coin);
        const markPx = market.pxText();
        const { szDecimals, pxDecimals } = market.spec;
        const accountValue = hlDecimalOf(this.wallets.equity(victim), PNL_DP, MONEY_DP);
        const szi = unitsToDecimal(held, szDecimals);
        const ntl = hlDecimalOf(BigInt(Math.abs(held)) * BigInt(market.ticks), szDecimals + pxDecimals, MONEY_DP);
        this.matcher.quoted(d, liquidator, {
          taker: victim,
          market,
          side: held > 0 ? 'A' : 'B',
          units: Math.abs(held),
          pxTicks: market.ticks,
          hash: this.desk.hash(),
          takerOid: this.desk.nextOid(),
          twapId: null,
          builder: null,
          takerCloid: null,
          liquidation: { liquidatedUser: victim.address, markPx, method: 'market' },
        });
        d.addMisc(
          {
            LedgerUpdate: {
              users: [victim.address],
              delta: {
                type: 'liquidation',
                liquidatedNtlPos: ntl,
                accountValue,
                leverageType: 'Cross',
                liquidatedPositions: [{ coin: market.coin, szi }],
              },
            },
          },
          this.desk.hash(),
        );
      }
    }
  }
}
