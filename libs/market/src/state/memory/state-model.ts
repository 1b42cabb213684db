import { NumericSum, PgNumeric } from '#database';
import type { PositionStateRecord, WalletStateRecord } from '#exchange';
import { segmentBounds, SEGMENTS, type SegmentCategory } from '../../segments/segments.js';

/** A wallet's row as the writer stores it (`wallets` columns, the exact text of each decimal). */
export interface WalletRow {
  address: string;
  perpEquity: string;
  spotEquity: string;
  stakedEquity: string;
  totalEquity: string;
  perpPnl: string;
  sizeSegmentId: number;
  pnlSegmentId: number;
  openValue: string;
  longValue: string;
  shortValue: string;
  sumUpnl: string;
  exposureRatio: string | null;
  perpBias: string | null;
  closestLiqCoin: string | null;
  closestLiqProgress: string | null;
  countOpenPositions: number;
  spotHype: string;
  stakedHype: string;
}

/** An open position's values as the writer stores them; the source's own text where stored as given. */
export interface PositionRow {
  size: string;
  entryPrice: string;
  value: string;
  unrealizedPnl: string;
  funding: string;
  liquidationPrice: string | null;
  liquidationProgress: string | null;
  leverageType: string;
  leverage: string;
  marginUsed: string;
}

/**
 * What the state writer's SQL reads back of a wallet: the figures a change is detected against, its
 * cohorts and equities for the snapshots, and, once an update of the group in progress touched it, the
 * row to store and when.
 */
export interface WalletModel {
  address: string;
  perpEquity: PgNumeric;
  perpPnl: PgNumeric;
  spotHype: PgNumeric;
  stakedHype: PgNumeric;
  spotEquity: PgNumeric;
  stakedEquity: PgNumeric;
  totalEquity: PgNumeric;
  sizeSegmentId: number;
  pnlSegmentId: number;
  /**
   * The wallet's positions in the last update of the group that had it, its row's source (null: as
   * stored). The row itself is built only when the group is written: most updates of a group are
   * overwritten by the next.
   */
  staged: readonly StagedPosition[] | null;
  /** The last update that had the wallet (its state_time), when in the group. */
  stateTime: string | null;
  /** The update that first saw the wallet, when in the group: the wallet is not stored yet. */
  createdTime: string | null;
}

/** An open position: what the snapshots sum, and what is stored of it once the group is written. */
export interface OpenPositionModel {
  address: string;
  coin: string;
  long: boolean;
  size: PgNumeric;
  value: PgNumeric;
  funding: PgNumeric;
  unrealizedPnl: PgNumeric;
  liquidationProgress: PgNumeric | null;
  openTimeMs: number;
  /** The source's record of the values to store, when an update of the group set them (null: as stored). */
  source: PositionStateRecord | null;
  /** The last update that set its values (updated_at), when in the group. */
  updatedTime: string | null;
  /** The update that opened it, when in the group: the position is not stored yet. */
  createdTime: string | null;
}

/** A position that closed during the group: stored (an update) or opened in the group too (an insert). */
export interface ClosedPosition {
  position: OpenPositionModel;
  closeTime: string;
}

/** The history rows of one update: change points of HYPE balances and PnL. */
export interface UpdateHistory {
  holderRows: Array<{ address: string; spotAmount: string; stakedAmount: string }>;
  pnlRows: Array<{ address: string; perpPnl: string }>;
  /** The positions the update opened, in the staged order. */
  opened: OpenPositionModel[];
  closed: number;
  newWallets: number;
}

const ONE = PgNumeric.of(1n, 0);
const ZERO = PgNumeric.ZERO;
/** 10^6 and 10^-6 as doubles, for the quick path of the liquidation progress. */
const MICRO = 1e6;

/**
 * The liquidation progress the staging table's generated column gives (state-staging.repository.ts): how far
 * the mark has moved from entry toward the liquidation price, 0 to 1, rounded to 6 places; null without a
 * liquidation price or with one at the entry price. Postgres computes it in exact decimals; a double gets the
 * same 6 places unless the exact value lies within the double's error bound of a rounding point, and those
 * few (or any value not held as a safe integer) take the exact path.
 */
export function liquidationProgress(szi: PgNumeric, entryPx: PgNumeric, positionValue: PgNumeric, liquidationPx: PgNumeric | null): PgNumeric | null {
  if (liquidationPx === null || liquidationPx.cmp(entryPx) === 0) return null;
  return quickProgress(szi, entryPx, positionValue, liquidationPx) ?? exactLiquidationProgress(szi, entryPx, positionValue, liquidationPx);
}

/** The liquidation progress in exact decimals, statement for statement the generated column's. */
export function exactLiquidationProgress(szi: PgNumeric, entryPx: PgNumeric, positionValue: PgNumeric, liquidationPx: PgNumeric): PgNumeric {
  const progress = entryPx.minus(positionValue.div(szi.abs())).div(entryPx.minus(liquidationPx)).round(6);
  // greatest(0, least(1, x)): each returns its first argument unless the other is strictly beyond it.
  if (progress.cmp(ONE) >= 0) return ONE;
  return progress.sign > 0 ? progress : ZERO;
}

const toDouble = (n: PgNumeric): number | null => {
  const units = n.safeUnits;
  return units === null ? null : units / 10 ** n.scale;
};

/**
 * (e - v/|s|) / (e - l) in doubles, rounded to 6 places when that is certainly the exact result's rounding.
 * Each of the few double operations is within 2^-53 of its exact value, and Postgres's own quotients round
 * at 16 significant digits or more: the bound below covers both, with a wide margin.
 */
function quickProgress(szi: PgNumeric, entryPx: PgNumeric, positionValue: PgNumeric, liquidationPx: PgNumeric): PgNumeric | null {
  const s = toDouble(szi);
  const e = toDouble(entryPx);
  const v = toDouble(positionValue);
  const l = toDouble(liquidationPx);
  if (s === null || e === null || v === null || l === null) return null;
  const mark = v / Math.abs(s);
  const span = e - l;
  const x = (e - mark) / span;
  const scale = Math.max(Math.abs(e), Math.abs(mark), Math.abs(l));
  const error = (1e-14 * scale) / Math.abs(span) * (1 + Math.abs(x)) + 1e-14 * Math.abs(x);
  if (!Number.isFinite(x) || !Number.isFinite(error)) return null;
  // Certainly beyond the clamps: the rounded value is past 1 or at most 0 whatever the last digits.
  if (x - error >= 1) return ONE;
  if (x + error < 0.0000005) return ZERO;
  const micro = Math.abs(x) * MICRO;
  const whole = Math.floor(micro);
  const fraction = micro - whole;
  if (micro > 1e9 || Math.abs(fraction - 0.5) <= error * MICRO + 1e-9) return null;
  const rounded = (fraction > 0.5 ? whole + 1 : whole) * (x < 0 ? -1 : 1);
  if (rounded >= MICRO) return ONE;
  if (rounded <= 0) return ZERO;
  return PgNumeric.ofSafeInteger(rounded, 6);
}

const SEGMENT_BOUNDS = SEGMENTS.map((s) => {
  const [min, max] = segmentBounds(s);
  return { id: s.id, category: s.category, min: min === undefined ? null : PgNumeric.parse(String(min)), max: max === undefined ? null : PgNumeric.parse(String(max)) };
});

/** The cohort of an exact value, as segmentCaseSql's CASE and sizeSegmentFor/pnlSegmentFor decide it, without big.js. */
export function segmentOf(category: SegmentCategory, value: PgNumeric): number {
  for (const s of SEGMENT_BOUNDS) {
    if (s.category !== category) continue;
    if ((s.min === null || value.cmp(s.min) >= 0) && (s.max === null || value.cmp(s.max) < 0)) return s.id;
  }
  return 16;
}

/** A position of the update, parsed. */
export interface StagedPosition {
  record: PositionStateRecord;
  szi: PgNumeric;
  value: PgNumeric;
  unrealizedPnl: PgNumeric;
  progress: PgNumeric | null;
}

/**
 * The wallets and open positions as the SQL writer's statements read them back at each update, held in the
 * ingestor's memory: the figures a change is detected against, and every open position the snapshots sum.
 * Updates are applied to it in order (`apply`), several of them in one transaction (a group): what they
 * change of the wallets and positions is stored once, at the group's end (`pendingWrites`), as the last
 * update of the group left it; their history rows are each their own.
 */
export class StateModel {
  /** Positions that closed in the group, in the order they closed. */
  private closedInGroup: ClosedPosition[] = [];
  /** Positions opened in the group, in the order they opened (their serial ids follow it). */
  private openedInGroup: OpenPositionModel[] = [];

  constructor(
    /** The update the model is of; null before the first. */
    public height: number | null,
    readonly wallets: Map<string, WalletModel>,
    /** Each wallet's open positions (a handful), by address. */
    readonly positions: Map<string, OpenPositionModel[]>,
  ) {}

  /** Every open position. */
  *openPositions(): Generator<OpenPositionModel> {
    for (const list of this.positions.values()) yield* list;
  }

  static empty(): StateModel {
    return new StateModel(null, new Map(), new Map());
  }

  /**
   * One update, mirroring the SQL writer statement by statement: HYPE balance and PnL change points against
   * the wallets before it, wallet rows from the wallet's staged positions, then positions closed (gone, or now
   * on the other side), updated in place, and opened. Only wallets present in the update are touched.
   * The opened positions' open times are set by the caller (from the stored fills) before the snapshots.
   */
  apply(
    height: number,
    stateTime: string,
    stateTimeMs: number,
    wallets: readonly WalletStateRecord[],
    staged: ReadonlyArray<{ address: string; position: PositionStateRecord }>,
    hypePx: string | null,
  ): UpdateHistory {
    const price = hypePx === null ? ZERO : PgNumeric.parse(hypePx);
    const byWallet = new Map<string, StagedPosition[]>();
    for (const { address, position } of staged) {
      const szi = PgNumeric.parse(position.szi);
      const value = PgNumeric.parse(position.positionValue);
      const liquidation = position.liquidationPx === null ? null : PgNumeric.parse(position.liquidationPx);
      const item: StagedPosition = {
        record: position,
        szi,
        value,
        unrealizedPnl: PgNumeric.parse(position.unrealizedPnl),
        progress: liquidationProgress(szi, PgNumeric.parse(position.entryPx), value, liquidation),
      };
      const list = byWallet.get(address);
      if (list) list.push(item);
      else byWallet.set(address, [item]);
    }

    const history: UpdateHistory = { holderRows: [], pnlRows: [], opened: [], closed: 0, newWallets: 0 };
    const inUpdate = new Set<string>();
    for (const wallet of wallets) {
      const address = wallet.address.toLowerCase();
      inUpdate.add(address);
      const old = this.wallets.get(address);
      const spotHype = PgNumeric.parse(wallet.spotHype);
      const stakedHype = PgNumeric.parse(wallet.stakedHype);
      const perpEquity = PgNumeric.parse(wallet.perpEquity);
      // A source without all-time PnL (the info API) leaves the wallet's last known figure.
      const perpPnl = wallet.allTimePnl !== null ? PgNumeric.parse(wallet.allTimePnl) : (old?.perpPnl ?? ZERO);
      if (old ? old.spotHype.cmp(spotHype) !== 0 || old.stakedHype.cmp(stakedHype) !== 0 : spotHype.sign !== 0 || stakedHype.sign !== 0) {
        history.holderRows.push({ address, spotAmount: `${spotHype}`, stakedAmount: `${stakedHype}` });
      }
      if (!old || old.perpPnl.cmp(perpPnl) !== 0) history.pnlRows.push({ address, perpPnl: `${perpPnl}` });
      if (!old) history.newWallets++;

      const spotEquity = spotHype.times(price);
      const stakedEquity = stakedHype.times(price);
      const model: WalletModel = {
        address,
        perpEquity,
        perpPnl,
        spotHype,
        stakedHype,
        spotEquity,
        stakedEquity,
        totalEquity: perpEquity.plus(spotEquity).plus(stakedEquity),
        sizeSegmentId: segmentOf('size', perpEquity),
        pnlSegmentId: segmentOf('pnl', perpPnl),
        staged: byWallet.get(address) ?? [],
        stateTime,
        createdTime: old ? old.createdTime : stateTime,
      };
      this.wallets.set(address, model);
    }

    // Positions of the wallets in the update: closed when gone or flipped, updated in place, new ones opened,
    // in the staged order.
    for (const address of inUpdate) {
      const before = this.positions.get(address);
      const staged = byWallet.get(address);
      if (before === undefined && staged === undefined) continue;
      const after: OpenPositionModel[] = [];
      for (const open of before ?? []) {
        const still = staged?.find((p) => p.record.coin === open.coin);
        if (still === undefined || still.szi.sign > 0 !== open.long) {
          this.closedInGroup.push({ position: open, closeTime: stateTime });
          history.closed++;
        } else {
          after.push(open);
        }
      }
      for (const p of staged ?? []) {
        const funding = PgNumeric.parse(p.record.fundingSinceOpen);
        const open = after.find((o) => o.coin === p.record.coin);
        if (open) {
          open.size = p.szi.abs();
          open.value = p.value;
          open.funding = funding;
          open.unrealizedPnl = p.unrealizedPnl;
          open.liquidationProgress = p.progress;
          open.source = p.record;
          open.updatedTime = stateTime;
          continue;
        }
        const opened: OpenPositionModel = {
          address,
          coin: p.record.coin,
          long: p.szi.sign > 0,
          size: p.szi.abs(),
          value: p.value,
          funding,
          unrealizedPnl: p.unrealizedPnl,
          liquidationProgress: p.progress,
          // The state time until the stored fills say otherwise (the caller's open times).
          openTimeMs: stateTimeMs,
          source: p.record,
          updatedTime: stateTime,
          createdTime: stateTime,
        };
        after.push(opened);
        this.openedInGroup.push(opened);
        history.opened.push(opened);
      }
      if (after.length > 0) this.positions.set(address, after);
      else this.positions.delete(address);
    }
    this.height = height;
    return history;
  }

  /**
   * What the group changed of the wallets and positions, as its last update left them, with the wallets'
   * rows; `coinOrder` ranks coins as the database's collation sorts them (the closest liquidation's tie-break).
   */
  pendingWrites(coinOrder: ReadonlyMap<string, number>): {
    wallets: Array<{ wallet: WalletModel; row: WalletRow }>;
    open: OpenPositionModel[];
    closed: ClosedPosition[];
    opened: OpenPositionModel[];
  } {
    const wallets: Array<{ wallet: WalletModel; row: WalletRow }> = [];
    for (const w of this.wallets.values()) if (w.staged !== null) wallets.push({ wallet: w, row: walletRow(w, w.staged, coinOrder) });
    return {
      wallets,
      open: [...this.openPositions()].filter((p) => p.updatedTime !== null && p.createdTime === null),
      closed: this.closedInGroup.filter((c) => c.position.createdTime === null),
      opened: this.openedInGroup,
    };
  }

  /** The group is stored: its rows are the stored ones now. */
  stored(): void {
    for (const w of this.wallets.values()) {
      w.staged = null;
      w.stateTime = null;
      w.createdTime = null;
    }
    for (const p of this.openPositions()) {
      p.source = null;
      p.updatedTime = null;
      p.createdTime = null;
    }
    this.closedInGroup = [];
    this.openedInGroup = [];
  }

  /** Closed positions of the group by the position, for the insert of those opened in it too. */
  closeTimes(): Map<OpenPositionModel, string> {
    return new Map(this.closedInGroup.map((c) => [c.position, c.closeTime]));
  }
}

/** The values to store of a position the group set, from its source's record and the figures derived from it. */
export function positionRow(p: OpenPositionModel): PositionRow {
  const r = p.source!;
  return {
    size: `${p.size}`,
    entryPrice: r.entryPx,
    value: r.positionValue,
    unrealizedPnl: r.unrealizedPnl,
    funding: r.fundingSinceOpen,
    liquidationPrice: r.liquidationPx,
    liquidationProgress: p.liquidationProgress === null ? null : `${p.liquidationProgress}`,
    leverageType: r.leverageType,
    leverage: String(r.leverage),
    marginUsed: r.marginUsed,
  };
}

/**
 * A wallet's row from its staged positions (WalletStateRepository's stage_wallet_values and WALLET_VALUES):
 * sums over its positions, ratios to positive perp equity rounded to 8 places, and its position closest to
 * liquidation (highest progress, then the first coin in the collation's order).
 */
function walletRow(w: WalletModel, positions: readonly StagedPosition[], coinOrder: ReadonlyMap<string, number>): WalletRow {
  const openValue = new NumericSum();
  const longValue = new NumericSum();
  const shortValue = new NumericSum();
  const sumUpnl = new NumericSum();
  let closest: StagedPosition | null = null;
  for (const p of positions) {
    openValue.add(p.value);
    if (p.szi.sign > 0) longValue.add(p.value);
    else shortValue.add(p.value);
    sumUpnl.add(p.unrealizedPnl);
    if (p.progress === null) continue;
    if (closest === null) closest = p;
    else {
      const c = p.progress.cmp(closest.progress!);
      if (c > 0 || (c === 0 && coinOrder.get(p.record.coin)! < coinOrder.get(closest.record.coin)!)) closest = p;
    }
  }
  const ratios = w.perpEquity.sign > 0 && positions.length > 0;
  return {
    address: w.address,
    perpEquity: `${w.perpEquity}`,
    spotEquity: `${w.spotEquity}`,
    stakedEquity: `${w.stakedEquity}`,
    totalEquity: `${w.totalEquity}`,
    perpPnl: `${w.perpPnl}`,
    sizeSegmentId: w.sizeSegmentId,
    pnlSegmentId: w.pnlSegmentId,
    openValue: `${openValue}`,
    longValue: `${longValue}`,
    shortValue: `${shortValue}`,
    sumUpnl: `${sumUpnl}`,
    exposureRatio: ratios ? `${openValue.value().div(w.perpEquity).round(8)}` : null,
    perpBias: ratios ? `${longValue.value().minus(shortValue.value()).div(w.perpEquity).round(8)}` : null,
    closestLiqCoin: closest?.record.coin ?? null,
    closestLiqProgress: closest ? `${closest.progress}` : null,
    countOpenPositions: positions.length,
    spotHype: `${w.spotHype}`,
    stakedHype: `${w.stakedHype}`,
  };
}
