import { divide, DIVISION_DP, hlDecimalOf, hlText, pow10, rescale, toNumber, unitsToNumber } from './fixed-decimal.js';
import { MAX_SZ_DECIMALS, type Market, type MarketBook } from './market-book.js';
import type { SeededRandom } from './seeded-random.js';
import { makerProfile, traderProfile, type WalletProfile } from './wallet-profiles.js';
import { unitsToDecimal } from './wire-format.js';

/** Maintenance margin as a fraction of notional (half the initial margin at 50x). */
export const MAINTENANCE_MARGIN = 0.01;

/** Places of USDC amounts as the streams write them (closedPnl, fees, funding): cash and PnL are kept in these units. */
export const MONEY_DP = 6;
/** Places entry prices are kept to (the weighted mean is rounded to them). */
export const ENTRY_DP = 8;
/** Places of unrealized PnL: any market's size places times an entry price's, so a wallet's sum is exact. */
export const PNL_DP = ENTRY_DP + MAX_SZ_DECIMALS;

export interface SimPosition {
  coin: string;
  /** Signed size in units of 10^-szDecimals. */
  units: number;
  /** In units of 10^-ENTRY_DP. */
  entryPx: bigint;
  /** Funding received (+) or paid (-) since the position opened, in 10^-MONEY_DP; a flip starts it again. */
  funding: bigint;
  /** |units| as a size and entryPx, as floats kept with them: for sizing and liquidation decisions only, never written. */
  size: number;
  entry: number;
}

export class Wallet {
  /**
   * Perp USDC balance: perp equity minus unrealized PnL. Moves only by what the streams say (closedPnl,
   * fees, funding, ledger). It and the PnL parts below are in units of 10^-MONEY_DP.
   */
  cash: bigint;
  readonly pnlBaseline: bigint;
  closedPnl = 0n;
  funding = 0n;
  fees = 0n;
  spotHypeCents: number;
  stakedHypeCents: number;
  readonly positions = new Map<string, SimPosition>();
  /** Liquidation price per coin (float, only compared against the mark), refreshed when the wallet changes. */
  readonly liquidationPx = new Map<string, number>();

  constructor(
    readonly address: string,
    readonly profile: WalletProfile,
    random: SeededRandom,
  ) {
    this.cash = BigInt(profile.targetEquity) * pow10(MONEY_DP);
    this.pnlBaseline = BigInt(profile.targetPnl) * pow10(MONEY_DP);
    // A few percent of equity in HYPE at ~38 USD, split between spot and staked.
    this.spotHypeCents = Math.round(((profile.targetEquity * random.between(0, 0.03)) / 38) * 100);
    this.stakedHypeCents = Math.round(((profile.targetEquity * random.between(0, 0.03)) / 38) * 100);
  }

  /** Signed size units of the position in `coin` (0 if flat). */
  positionUnits(coin: string): number {
    return this.positions.get(coin)?.units ?? 0;
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
      if (wallet.positions.get(coin)!.units > 0) bounds.longMax = Math.max(bounds.longMax, px);
      else bounds.shortMin = Math.min(bounds.shortMin, px);
    }
    this.bounds.set(coin, bounds);
    return bounds;
  }

  /** In units of 10^-PNL_DP. */
  unrealized(wallet: Wallet): bigint {
    let total = 0n;
    for (const p of wallet.positions.values()) {
      const market = this.markets.get(p.coin);
      total += positionPnl(p, market) * pow10(PNL_DP - ENTRY_DP - market.spec.szDecimals);
    }
    return total;
  }

  /** In units of 10^-PNL_DP. */
  equity(wallet: Wallet): bigint {
    return wallet.cash * pow10(PNL_DP - MONEY_DP) + this.unrealized(wallet);
  }

  /** Equity as a float, for sizing decisions: the double nearest the exact value. */
  equityNumber(wallet: Wallet): number {
    return toNumber(this.equity(wallet), PNL_DP);
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
  applyFill(wallet: Wallet, market: Market, side: 'A' | 'B', pxTicks: number, units: number, fee: bigint): FillEffect {
    const { coin } = market;
    const { szDecimals } = market.spec;
    const position = wallet.positions.get(coin) ?? { coin, units: 0, entryPx: 0n, funding: 0n, size: 0, entry: 0 };
    const px = priceAtEntryDp(market, pxTicks);
    const start = position.units;
    const signed = side === 'B' ? units : -units;
    const end = start + signed;
    let dir: string;
    let closed = 0n;
    if (start === 0 || start > 0 === signed > 0) {
      dir = signed > 0 ? 'Open Long' : 'Open Short';
      position.entryPx = start === 0 ? px : weightedEntryPx(position.entryPx, Math.abs(start), px, units);
    } else {
      const closing = Math.min(Math.abs(start), units);
      closed = rescale((px - position.entryPx) * BigInt(start > 0 ? closing : -closing), ENTRY_DP + szDecimals, MONEY_DP);
      if (end === 0) dir = start > 0 ? 'Close Long' : 'Close Short';
      else if (end > 0 === start > 0) dir = start > 0 ? 'Close Long' : 'Close Short';
      else {
        dir = start > 0 ? 'Long > Short' : 'Short > Long';
        position.entryPx = px;
        position.funding = 0n;
      }
    }
    position.units = end;
    position.size = unitsToNumber(Math.abs(end), szDecimals);
    position.entry = toNumber(position.entryPx, ENTRY_DP);
    wallet.closedPnl += closed;
    wallet.fees += fee;
    wallet.cash += closed - fee;
    this.setPosition(wallet, position);
    return { startPosition: unitsToDecimal(start, szDecimals), dir, closedPnl: hlDecimalOf(closed, MONEY_DP) };
  }

  private setPosition(wallet: Wallet, position: SimPosition): void {
    let holders = this.holders.get(position.coin);
    if (!holders) this.holders.set(position.coin, (holders = new Set()));
    if (position.units === 0) {
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
      if (wallet.positions.get(coin)!.units > 0) bounds.longMax = Math.max(bounds.longMax, px);
      else bounds.shortMin = Math.min(bounds.shortMin, px);
    }
  }

  private computeLiquidationPrices(wallet: Wallet): void {
    // Makers are the exchange's liquidity and the liquidator: they are never liquidated.
    if (wallet.profile.role === 'maker') return;
    let total = 0;
    for (const p of wallet.positions.values()) total += p.size * p.entry;
    if (total === 0) return;
    const cash = toNumber(wallet.cash, MONEY_DP);
    for (const p of wallet.positions.values()) {
      const { size, entry } = p;
      const share = (cash * size * entry) / total;
      const cushion = (share - MAINTENANCE_MARGIN * size * entry) / size;
      const px = p.units > 0 ? entry - cushion : entry + cushion;
      if (px > 0) wallet.liquidationPx.set(p.coin, px);
    }
  }

  snapshot(wallet: Wallet): WalletSnapshot {
    const unrealized = this.unrealized(wallet);
    const positions = [...wallet.positions.values()].map((p): PositionSnapshot => {
      const market = this.markets.get(p.coin);
      const liq = wallet.liquidationPx.get(p.coin);
      const { szDecimals, pxDecimals } = market.spec;
      return {
        coin: p.coin,
        szi: unitsToDecimal(p.units, szDecimals),
        entryPx: hlDecimalOf(p.entryPx, ENTRY_DP),
        markPx: market.pxText(),
        positionValue: hlDecimalOf(BigInt(Math.abs(p.units)) * BigInt(market.ticks), szDecimals + pxDecimals, MONEY_DP),
        unrealizedPnl: hlDecimalOf(positionPnl(p, market), ENTRY_DP + szDecimals, MONEY_DP),
        liquidationPx: liq === undefined ? null : floatPriceText(liq, pxDecimals),
        fundingSinceOpen: hlDecimalOf(p.funding, MONEY_DP),
      };
    });
    const toPnlDp = pow10(PNL_DP - MONEY_DP);
    return {
      address: wallet.address,
      role: wallet.profile.role,
      cash: hlDecimalOf(wallet.cash, MONEY_DP),
      perpEquity: hlDecimalOf(wallet.cash * toPnlDp + unrealized, PNL_DP, MONEY_DP),
      allTimePnl: hlDecimalOf(
        (wallet.pnlBaseline + wallet.closedPnl + wallet.funding - wallet.fees) * toPnlDp + unrealized,
        PNL_DP,
        MONEY_DP,
      ),
      spotHype: unitsToDecimal(wallet.spotHypeCents, 2),
      stakedHype: unitsToDecimal(wallet.stakedHypeCents, 2),
      positions,
    };
  }
}

/** A price of `ticks` in units of 10^-ENTRY_DP. */
function priceAtEntryDp(market: Market, ticks: number): bigint {
  return BigInt(ticks) * pow10(ENTRY_DP - market.spec.pxDecimals);
}

/** size × (mark − entry), in units of 10^-(ENTRY_DP + szDecimals). */
function positionPnl(p: SimPosition, market: Market): bigint {
  return BigInt(p.units) * (market.pxUnits(ENTRY_DP) - p.entryPx);
}

/**
 * (entryPx·held + px·added) / (held + added) rounded to ENTRY_DP, as big.js computed it: divided to
 * DIVISION_DP places, then rounded again. Both roundings are kept so no proof about the second is needed.
 */
function weightedEntryPx(entryPx: bigint, heldUnits: number, px: bigint, addedUnits: number): bigint {
  const total = entryPx * BigInt(heldUnits) + px * BigInt(addedUnits);
  return rescale(divide(total, ENTRY_DP, BigInt(heldUnits + addedUnits), 0), DIVISION_DP, ENTRY_DP);
}

/** A float liquidation price written to `dp` places, as big.js wrote the float's toFixed. It is always positive. */
function floatPriceText(px: number, dp: number): string {
  const fixed = px.toFixed(dp);
  if (!/^\d+(\.\d+)?$/.test(fixed)) throw new Error(`not a positive price below 1e21: ${fixed}`);
  return hlText(false, fixed.replace('.', ''), dp);
}
