import Big from 'big.js';
import type { MarketBook } from './market-book.js';
import type { SeededRandom } from './seeded-random.js';
import { makerProfile, traderProfile, type WalletProfile } from './wallet-profiles.js';
import { hlDecimal } from './wire-format.js';

/** Maintenance margin as a fraction of notional (half the initial margin at 50x). */
export const MAINTENANCE_MARGIN = 0.01;

export interface SimPosition {
  coin: string;
  /** Signed size, exact. */
  szi: Big;
  entryPx: Big;
  /** Funding received (+) or paid (-) since the position opened; a flip starts it again. */
  funding: Big;
  /** |szi| and entryPx as floats, kept with them: for sizing and liquidation decisions only, never written. */
  size: number;
  entry: number;
}

export class Wallet {
  /** Perp USDC balance: perp equity minus unrealized PnL. Moves only by what the streams say (closedPnl, fees, funding, ledger). */
  cash: Big;
  readonly pnlBaseline: Big;
  closedPnl = new Big(0);
  funding = new Big(0);
  fees = new Big(0);
  spotHype: Big;
  stakedHype: Big;
  readonly positions = new Map<string, SimPosition>();
  /** Liquidation price per coin (float, only compared against the mark), refreshed when the wallet changes. */
  readonly liquidationPx = new Map<string, number>();

  constructor(
    readonly address: string,
    readonly profile: WalletProfile,
    random: SeededRandom,
  ) {
    this.cash = new Big(profile.targetEquity);
    this.pnlBaseline = new Big(profile.targetPnl);
    // A few percent of equity in HYPE at ~38 USD, split between spot and staked.
    this.spotHype = new Big(Math.round((profile.targetEquity * random.between(0, 0.03)) / 38 * 100)).div(100);
    this.stakedHype = new Big(Math.round((profile.targetEquity * random.between(0, 0.03)) / 38 * 100)).div(100);
  }
}

export interface FillEffect {
  startPosition: string;
  dir: string;
  closedPnl: string;
}

/** Position snapshot with derived values, as a clearinghouseState-like state source will need them. */
export interface PositionSnapshot {
  coin: string;
  szi: string;
  entryPx: string;
  markPx: string;
  positionValue: string;
  unrealizedPnl: string;
  /** Null when no price liquidates it. */
  liquidationPx: string | null;
  /** Funding received (+) or paid (-) since the position opened. */
  fundingSinceOpen: string;
}

export interface WalletSnapshot {
  address: string;
  role: WalletProfile['role'];
  /** Perp USDC balance (withdrawable plus margin in use, before unrealized PnL). */
  cash: string;
  /** cash + unrealized PnL. */
  perpEquity: string;
  /** PnL before the span + closedPnl + funding - fees + unrealized PnL. */
  allTimePnl: string;
  spotHype: string;
  stakedHype: string;
  positions: PositionSnapshot[];
}

export class WalletBook {
  readonly wallets: Wallet[] = [];
  readonly traders: Wallet[] = [];
  readonly makers: Wallet[] = [];
  private readonly byAddress = new Map<string, Wallet>();
  /** Wallets with a position per coin, so a price move only looks at the holders of that coin. */
  readonly holders = new Map<string, Set<Wallet>>();
  private readonly bounds = new Map<string, { longMax: number; shortMin: number }>();

  constructor(
    traderCount: number,
    makerCount: number,
    random: SeededRandom,
    private readonly markets: MarketBook,
  ) {
    for (let i = 0; i < makerCount; i++) this.add(new Wallet(this.freshAddress(random), makerProfile(random), random), this.makers);
    for (let i = 0; i < traderCount; i++) this.add(new Wallet(this.freshAddress(random), traderProfile(i, random), random), this.traders);
  }

  private freshAddress(random: SeededRandom): string {
    for (;;) {
      const address = `0x${random.hex(40)}`;
      if (!this.byAddress.has(address)) return address;
    }
  }

  private add(wallet: Wallet, list: Wallet[]): void {
    this.wallets.push(wallet);
    list.push(wallet);
    this.byAddress.set(wallet.address, wallet);
  }

  /**
   * The highest liquidation price of a long and the lowest of a short in a coin, cached until a holder
   * changes: a price move between them liquidates nobody, which is most blocks.
   */
  liquidationBounds(coin: string): { longMax: number; shortMin: number } {
    let bounds = this.bounds.get(coin);
    if (bounds) return bounds;
    bounds = { longMax: -Infinity, shortMin: Infinity };
    for (const wallet of this.holders.get(coin) ?? []) {
      const px = wallet.liquidationPx.get(coin);
      if (px === undefined) continue;
      if (wallet.positions.get(coin)!.szi.s > 0) bounds.longMax = Math.max(bounds.longMax, px);
      else bounds.shortMin = Math.min(bounds.shortMin, px);
    }
    this.bounds.set(coin, bounds);
    return bounds;
  }

  unrealized(wallet: Wallet): Big {
    let total = new Big(0);
    for (const p of wallet.positions.values()) total = total.plus(p.szi.times(this.markets.get(p.coin).px.minus(p.entryPx)));
    return total;
  }

  equity(wallet: Wallet): Big {
    return wallet.cash.plus(this.unrealized(wallet));
  }

  /** Float notional at mark, for sizing decisions. */
  notional(wallet: Wallet): number {
    let total = 0;
    for (const p of wallet.positions.values()) total += p.size * this.markets.get(p.coin).pxNumber;
    return total;
  }

  /**
   * Applies one fill to the wallet's position and cash; returns what the fill must say about it.
   * closedPnl is rounded to the wire's 6 places first and that rounded value is what reaches cash,
   * so a consumer summing the stream lands on exactly this state.
   */
  applyFill(wallet: Wallet, coin: string, side: 'A' | 'B', px: Big, sz: Big, fee: Big): FillEffect {
    const market = this.markets.get(coin);
    const position = wallet.positions.get(coin) ?? { coin, szi: new Big(0), entryPx: new Big(0), funding: new Big(0), size: 0, entry: 0 };
    const start = position.szi;
    const signed = side === 'B' ? sz : sz.neg();
    const end = start.plus(signed);
    let dir: string;
    let closed = new Big(0);
    if (start.eq(0) || start.gt(0) === signed.gt(0)) {
      dir = signed.gt(0) ? 'Open Long' : 'Open Short';
      // From flat the weighted mean is the fill's price: the same value without big.js's long division.
      position.entryPx = start.eq(0) ? px.round(8) : position.entryPx.times(start.abs()).plus(px.times(sz)).div(start.abs().plus(sz)).round(8);
    } else {
      const closing = start.abs().lt(sz) ? start.abs() : sz;
      closed = px.minus(position.entryPx).times(closing).times(start.gt(0) ? 1 : -1).round(6, Big.roundHalfUp);
      if (end.eq(0)) dir = start.gt(0) ? 'Close Long' : 'Close Short';
      else if (end.gt(0) === start.gt(0)) dir = start.gt(0) ? 'Close Long' : 'Close Short';
      else {
        dir = start.gt(0) ? 'Long > Short' : 'Short > Long';
        position.entryPx = px;
        position.funding = new Big(0);
      }
    }
    position.szi = end;
    position.size = Math.abs(end.toNumber());
    position.entry = position.entryPx.toNumber();
    wallet.closedPnl = wallet.closedPnl.plus(closed);
    wallet.fees = wallet.fees.plus(fee);
    wallet.cash = wallet.cash.plus(closed).minus(fee);
    this.setPosition(wallet, position);
    return { startPosition: hlDecimal(start, market.spec.szDecimals), dir, closedPnl: hlDecimal(closed, 6) };
  }

  private setPosition(wallet: Wallet, position: SimPosition): void {
    let holders = this.holders.get(position.coin);
    if (!holders) this.holders.set(position.coin, (holders = new Set()));
    if (position.szi.eq(0)) {
      wallet.positions.delete(position.coin);
      holders.delete(wallet);
    } else {
      wallet.positions.set(position.coin, position);
      holders.add(wallet);
    }
    this.refreshLiquidationPrices(wallet);
  }

  /**
   * A simple cross-margin liquidation price: the wallet's cash is shared among its positions by entry
   * notional, and a position is liquidated where its loss eats its share down to maintenance margin.
   * Other positions' unrealized PnL is ignored on purpose: it keeps the price fixed between changes.
   */
  refreshLiquidationPrices(wallet: Wallet): void {
    const before = [...wallet.liquidationPx];
    wallet.liquidationPx.clear();
    this.computeLiquidationPrices(wallet);
    this.updateBounds(wallet, before);
  }

  /**
   * Keeps the cached bounds without a rescan of all holders on every fill: a new price beyond a bound
   * widens it; a bound whose wallet moved away is dropped and rebuilt on the next read. A bound may
   * be wider than the truth, which only costs a scan; it is never narrower.
   */
  private updateBounds(wallet: Wallet, before: Array<[string, number]>): void {
    for (const [coin, px] of before) {
      const bounds = this.bounds.get(coin);
      if (bounds && (px === bounds.longMax || px === bounds.shortMin) && wallet.liquidationPx.get(coin) !== px) this.bounds.delete(coin);
    }
    for (const [coin, px] of wallet.liquidationPx) {
      const bounds = this.bounds.get(coin);
      if (!bounds) continue;
      if (wallet.positions.get(coin)!.szi.s > 0) bounds.longMax = Math.max(bounds.longMax, px);
      else bounds.shortMin = Math.min(bounds.shortMin, px);
    }
  }

  private computeLiquidationPrices(wallet: Wallet): void {
    // Makers are the exchange's liquidity and the liquidator: they are never liquidated.
    if (wallet.profile.role === 'maker') return;
    let total = 0;
    for (const p of wallet.positions.values()) total += p.size * p.entry;
    if (total === 0) return;
    const cash = wallet.cash.toNumber();
    for (const p of wallet.positions.values()) {
      const { size, entry } = p;
      const share = (cash * size * entry) / total;
      const cushion = (share - MAINTENANCE_MARGIN * size * entry) / size;
      const px = p.szi.s > 0 ? entry - cushion : entry + cushion;
      if (px > 0) wallet.liquidationPx.set(p.coin, px);
    }
  }

  snapshot(wallet: Wallet): WalletSnapshot {
    const unrealized = this.unrealized(wallet);
    const positions = [...wallet.positions.values()].map((p): PositionSnapshot => {
      const market = this.markets.get(p.coin);
      const liq = wallet.liquidationPx.get(p.coin);
      return {
        coin: p.coin,
        szi: hlDecimal(p.szi, market.spec.szDecimals),
        entryPx: hlDecimal(p.entryPx, 8),
        markPx: market.pxText(),
        positionValue: hlDecimal(p.szi.abs().times(market.px), 6),
        unrealizedPnl: hlDecimal(p.szi.times(market.px.minus(p.entryPx)), 6),
        liquidationPx: liq === undefined ? null : hlDecimal(new Big(liq.toFixed(market.spec.pxDecimals)), market.spec.pxDecimals),
        fundingSinceOpen: hlDecimal(p.funding, 6),
      };
    });
    return {
      address: wallet.address,
      role: wallet.profile.role,
      cash: hlDecimal(wallet.cash, 6),
      perpEquity: hlDecimal(wallet.cash.plus(unrealized), 6),
      allTimePnl: hlDecimal(wallet.pnlBaseline.plus(wallet.closedPnl).plus(wallet.funding).minus(wallet.fees).plus(unrealized), 6),
      spotHype: hlDecimal(wallet.spotHype, 8),
      stakedHype: hlDecimal(wallet.stakedHype, 8),
      positions,
    };
  }
}
