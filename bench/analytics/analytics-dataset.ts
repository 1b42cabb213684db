import { SeededRandom } from '#exchange';
import { pnlCohortFor, sizeCohortFor } from '#market';
import { decimal } from '../fills/node-fills.generator.js';
import { type CoinSpec, coinSpecs } from './analytics-coins.js';
import { bigDecimal, roundedRatio } from './analytics-decimals.js';

/**
 * The exchange-scale state the analytics benchmark reads: wallets with their cohorts, open and closed
 * positions, on a fixed 15-minute grid of state updates ending at a fixed time, so the same settings
 * give the same rows byte for byte whenever they are generated. Every wallet and its positions come
 * from a random stream of its own (seed and wallet index): the wallets pass and the positions pass
 * each rebuild a wallet instead of holding 200,000 of them in memory.
 *
 * Numbers are integers of a decimal unit (size units, price ticks, micro-dollars) and become exact
 * decimal strings only when written, with the writers' formulas (libs/market/src/state): value =
 * size x mark, liquidation progress as the staging table computes it, the wallet sums and ratios as
 * WalletStateRepository does, cohorts by sizeCohortFor and pnlCohortFor.
 */

/** Bumped whenever the generated rows change, so a database loaded by an older generator is loaded again. */
export const DATASET_VERSION = 2;
export const STATE_INTERVAL_MS = 15 * 60_000;
export const DAY_MS = 86_400_000;
/** Block height of the first state update; a block every 100 ms from there (heights and fill blocks agree). */
export const FIRST_HEIGHT = 800_000_000;
export const BLOCK_MS = 100;

export interface AnalyticsSettings {
  seed: number;
  wallets: number;
  /** Open positions at the latest state update. */
  positions: number;
  fills: number;
  /** Days of state updates (96 a day). */
  days: number;
  /** Exchange time of the latest state update. */
  endMs: number;
}

export function analyticsSettings(env: NodeJS.ProcessEnv = process.env): AnalyticsSettings {
  const setting = (name: string, fallback: number): number => {
    const value = Number(env[name] ?? fallback);
    if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a positive integer, got ${env[name]}`);
    return value;
  };
  return {
    seed: 9,
    wallets: setting('BENCH_ANALYTICS_WALLETS', 200_000),
    positions: setting('BENCH_ANALYTICS_POSITIONS', 500_000),
    fills: setting('BENCH_ANALYTICS_FILLS', 10_000_000),
    days: setting('BENCH_ANALYTICS_DAYS', 30),
    // A fixed time in the past, not "now": the dataset is then the same on every run.
    endMs: Date.UTC(2026, 10, 15, 0, 0, 0),
  };
}

export interface PositionRow {
  address: string;
  coin: string;
  dex: string;
  side: 'long' | 'short';
  size: string;
  entryPrice: string;
  value: string;
  unrealizedPnl: string;
  funding: string;
  liquidationPrice: string | null;
  liquidationProgress: string | null;
  leverageType: 'cross' | 'isolated';
  leverage: string;
  marginUsed: string;
  openTimeMs: number;
  closeTimeMs: number | null;
  createdAtMs: number;
  updatedAtMs: number;
}

/** A `wallets` row: its figures as the state writer stores them (the exact text of each decimal), and when. */
export interface WalletRow {
  address: string;
  perpEquity: string;
  spotEquity: string;
  stakedEquity: string;
  totalEquity: string;
  perpPnl: string;
  sizeCohortId: number;
  pnlCohortId: number;
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
  earliestActivityMs: number;
  stateTimeMs: number;
}

export interface WalletModel {
  wallet: WalletRow;
  open: PositionRow[];
  closed: PositionRow[];
}

/** A position's figures before they are written, with what the wallet sums need. */
interface Figures {
  row: PositionRow;
  valueMicros: number;
  upnlMicros: number;
  /** Liquidation progress in millionths, or null without a liquidation price. */
  progress: number | null;
}

// Perp equity (USD) by size cohort: [low, high, share of wallets]; most wallets are small.
const EQUITY_RANGES = [
  [1, 250, 0.3],
  [250, 10_000, 0.45],
  [10_000, 50_000, 0.13],
  [50_000, 100_000, 0.045],
  [100_000, 500_000, 0.05],
  [500_000, 1_000_000, 0.012],
  [1_000_000, 5_000_000, 0.01],
  [5_000_000, 60_000_000, 0.003],
] as const;
// All-time perp PnL (USD) by pnl cohort.
const PNL_RANGES = [
  [-20_000_000, -1_000_000, 0.003],
  [-1_000_000, -100_000, 0.02],
  [-100_000, -10_000, 0.08],
  [-10_000, 0, 0.4],
  [0, 10_000, 0.4],
  [10_000, 100_000, 0.07],
  [100_000, 1_000_000, 0.022],
  [1_000_000, 30_000_000, 0.005],
] as const;

const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));
/** A 32-bit seed of its own for each (seed, wallet, stream), so wallets can be rebuilt one at a time in any order. */
const streamSeed = (seed: number, wallet: number, stream: number): number =>
  (Math.imul(seed, 0x85ebca6b) ^ Math.imul(wallet + 1, 0xc2b2ae35) ^ Math.imul(stream + 1, 0x27d4eb2f)) >>> 0;

export class AnalyticsDataset {
  readonly coins: CoinSpec[];
  /** State updates, oldest first; the last one is at settings.endMs. */
  readonly updates: number;
  readonly startMs: number;
  readonly hypeTicks: number;
  readonly hypePxDecimals: number;
  /** Wallet i holds coin c when (a_c * i + b_c) mod wallets < openPositions_c: exactly that many holders, each once. */
  private readonly holders: Array<{ a: number; b: number }>;

  constructor(readonly settings: AnalyticsSettings) {
    this.coins = coinSpecs(settings);
    this.updates = settings.days * 96;
    this.startMs = settings.endMs - (this.updates - 1) * STATE_INTERVAL_MS;
    const hype = this.coins.find((c) => c.coin === 'HYPE')!;
    [this.hypeTicks, this.hypePxDecimals] = [hype.markTicks, hype.pxDecimals];
    const random = new SeededRandom(settings.seed);
    this.holders = this.coins.map((c) => {
      let a = 1_000_003 + 7_919 * c.index;
      while (gcd(a, settings.wallets) !== 1) a++;
      return { a, b: random.int(0, settings.wallets - 1) };
    });
  }

  updateTime(k: number): number {
    return this.startMs + k * STATE_INTERVAL_MS;
  }

  /** The first state update at or after `ms`: the one that first saw a position opened then. */
  updateAtOrAfter(ms: number): number {
    return this.startMs + Math.max(0, Math.ceil((ms - this.startMs) / STATE_INTERVAL_MS)) * STATE_INTERVAL_MS;
  }

  heightAt(ms: number): number {
    return FIRST_HEIGHT + Math.floor((ms - this.startMs) / BLOCK_MS);
  }

  /** Lowercase, as every feed stores addresses. */
  address(i: number): string {
    return `0x${new SeededRandom(streamSeed(this.settings.seed, i, 0)).hex(40)}`;
  }

  holds(coin: number, wallet: number): boolean {
    const { a, b } = this.holders[coin]!;
    return (a * wallet + b) % this.settings.wallets < this.coins[coin]!.openPositions;
  }

  /** Wallet i at the latest update, with its open positions and the positions it closed during the history. */
  wallet(i: number): WalletModel {
    const { settings } = this;
    const random = new SeededRandom(streamSeed(settings.seed, i, 1));
    const address = this.address(i);
    const equity = random.inRanges(EQUITY_RANGES);
    const pnl = random.inRanges(PNL_RANGES);
    const spotUnits = random.chance(0.3) ? Math.round(random.between(0, 5_000) * 1e8) : 0;
    const stakedUnits = random.chance(0.2) ? Math.round(random.between(0, 5_000) * 1e8) : 0;
    const held = this.coins.filter((c) => this.holds(c.index, i));
    // Total exposure from a tenth to three times the equity, shared out over the wallet's positions.
    const perPosition = (equity * random.between(0.1, 3)) / Math.max(1, held.length);
    const open = held.map((c) => this.position(random, address, c, perPosition, c.markTicks, this.openTime(random), null));

    const equityMicros = BigInt(Math.round(equity * 1e6));
    const perpEquity = bigDecimal(equityMicros, 6);
    const perpPnl = pnl.toFixed(6);
    let [openValue, longValue, upnl] = [0, 0, 0];
    let closest: Figures | null = null;
    for (const p of open) {
      openValue += p.valueMicros;
      if (p.row.side === 'long') longValue += p.valueMicros;
      upnl += p.upnlMicros;
      if (
        p.progress !== null &&
        (closest === null || p.progress > closest.progress! || (p.progress === closest.progress && p.row.coin < closest.row.coin))
      )
        closest = p;
    }
    const shortValue = openValue - longValue;
    // Spot and staked HYPE are valued at the update's HYPE price: scale 8 + the price's decimals.
    const hypeScale = 8 + this.hypePxDecimals;
    const spotEquity = BigInt(spotUnits) * BigInt(this.hypeTicks);
    const stakedEquity = BigInt(stakedUnits) * BigInt(this.hypeTicks);
    const withRatios = equityMicros > 0n && open.length > 0;
    const wallet: WalletRow = {
      address,
      // First seen at the first update, with no stored fill before it.
      earliestActivityMs: this.startMs,
      stateTimeMs: settings.endMs,
      perpEquity,
      spotEquity: bigDecimal(spotEquity, hypeScale),
      stakedEquity: bigDecimal(stakedEquity, hypeScale),
      totalEquity: bigDecimal(equityMicros * 10n ** BigInt(hypeScale - 6) + spotEquity + stakedEquity, hypeScale),
      perpPnl,
      sizeCohortId: sizeCohortFor(perpEquity),
      pnlCohortId: pnlCohortFor(perpPnl),
      openValue: decimal(openValue, 6),
      longValue: decimal(longValue, 6),
      shortValue: decimal(shortValue, 6),
      sumUpnl: decimal(upnl, 6),
      exposureRatio: withRatios ? roundedRatio(BigInt(openValue), equityMicros, 8) : null,
      perpBias: withRatios ? roundedRatio(BigInt(longValue - shortValue), equityMicros, 8) : null,
      closestLiqCoin: closest?.row.coin ?? null,
      closestLiqProgress: closest?.row.liquidationProgress ?? null,
      countOpenPositions: open.length,
      spotHype: spotUnits === 0 ? '0' : decimal(spotUnits, 8),
      stakedHype: stakedUnits === 0 ? '0' : decimal(stakedUnits, 8),
    };
    return { wallet, open: open.map((p) => p.row), closed: this.closedPositions(i, address, open, perPosition) };
  }

  /** Ages of open positions: a sixth opened in the last day, most within the history, a quarter before it (first seen at the first update). */
  private openTime(random: SeededRandom): number {
    const r = random.next();
    if (r >= 0.75) return this.startMs;
    const age =
      r < 0.15 ? random.between(0, DAY_MS) : r < 0.45 ? random.between(DAY_MS, 7 * DAY_MS) : random.between(7 * DAY_MS, 30 * DAY_MS);
    return Math.max(this.startMs, this.settings.endMs - Math.floor(age));
  }

  /**
   * Positions the wallet closed during the history (twice the open positions over all wallets), on
   * coins of their own so two never overlap, and ending before the wallet's open position in the coin
   * began. A position closes at a state update (the first that no longer saw it).
   */
  private closedPositions(i: number, address: string, open: Figures[], perPosition: number): PositionRow[] {
    const random = new SeededRandom(streamSeed(this.settings.seed, i, 2));
    const perWallet = (2 * this.settings.positions) / this.settings.wallets;
    const count = Math.min(this.coins.length, random.int(0, Math.round(2 * perWallet)));
    const first = random.int(0, this.coins.length - 1);
    const rows: PositionRow[] = [];
    for (let j = 0; j < count; j++) {
      // A stride of 7 over 40 markets visits each once.
      const coin = this.coins[(first + j * 7) % this.coins.length]!;
      const bound = open.find((p) => p.row.coin === coin.coin)?.row.openTimeMs ?? this.settings.endMs;
      const updatesBefore = Math.floor((bound - this.startMs) / STATE_INTERVAL_MS);
      if (updatesBefore < 2) continue;
      const closeMs = this.updateTime(random.int(1, updatesBefore));
      const openMs = random.chance(0.2)
        ? this.startMs
        : this.startMs + Math.floor(random.next() * (closeMs - STATE_INTERVAL_MS - this.startMs));
      const markTicks = Math.max(1, Math.round(coin.markTicks * random.between(0.9, 1.1)));
      rows.push(this.position(random, address, coin, perPosition, markTicks, openMs, closeMs).row);
    }
    return rows;
  }

  /**
   * One position at mark `markTicks`. Its entry and liquidation prices are drawn so that half are in
   * profit and the losing half spread over the way to liquidation (more of them near entry); a fifth
   * have no liquidation price (cross margin the account covers).
   */
  private position(
    random: SeededRandom,
    address: string,
    c: CoinSpec,
    usd: number,
    markTicks: number,
    openMs: number,
    closeMs: number | null,
  ): Figures {
    const long = random.chance(0.55);
    const leverage = random.int(1, 25);
    const reach = 0.9 / leverage;
    const losing = random.chance(0.5);
    const move = losing ? random.next() ** 2 * reach : -random.between(0, 0.5) * reach;
    const entryTicks = Math.max(1, Math.round(long ? markTicks / (1 - move) : markTicks / (1 + move)));
    const liquidationTicks = random.chance(0.8) ? Math.max(1, Math.round(entryTicks * (long ? 1 - reach : 1 + reach))) : null;
    const sizeUnits = Math.max(1, Math.round(((usd * random.between(0.5, 1.5)) / markTicks) * 10 ** (c.szDecimals + c.pxDecimals)));
    // value = size x mark exactly, in units of 10^-(sz + px decimals), which is at most 6.
    const scale = c.szDecimals + c.pxDecimals;
    const toMicros = 10 ** (6 - scale);
    const valueUnits = sizeUnits * markTicks;
    const upnlUnits = (long ? 1 : -1) * sizeUnits * (markTicks - entryTicks);
    const valueMicros = valueUnits * toMicros;
    const progress = liquidationTicks === null ? null : liquidationProgress(entryTicks, markTicks, liquidationTicks);
    const row: PositionRow = {
      address,
      coin: c.coin,
      dex: c.dex,
      side: long ? 'long' : 'short',
      size: decimal(sizeUnits, c.szDecimals),
      entryPrice: decimal(entryTicks, c.pxDecimals),
      value: decimal(valueUnits, scale),
      unrealizedPnl: decimal(upnlUnits, scale),
      funding: decimal(Math.round(valueMicros * random.between(-0.002, 0.002)), 6),
      liquidationPrice: liquidationTicks === null ? null : decimal(liquidationTicks, c.pxDecimals),
      liquidationProgress: progress === null ? null : progress === 0 ? '0' : progress === 1_000_000 ? '1' : decimal(progress, 6),
      leverageType: random.chance(0.9) ? 'cross' : 'isolated',
      leverage: String(leverage),
      marginUsed: decimal(Math.round(valueMicros / leverage), 6),
      openTimeMs: openMs,
      closeTimeMs: closeMs,
      createdAtMs: this.updateAtOrAfter(openMs),
      updatedAtMs: closeMs ?? this.settings.endMs,
    };
    return { row, valueMicros, upnlMicros: upnlUnits * toMicros, progress };
  }
}

/**
 * The staging table's liquidation_progress in millionths: greatest(0, least(1, round((entry - mark) /
 * (entry - liquidation), 6))), with mark = value / size, exactly the mark here. Null when the
 * liquidation price equals the entry.
 */
export function liquidationProgress(entryTicks: number, markTicks: number, liquidationTicks: number): number | null {
  if (liquidationTicks === entryTicks) return null;
  const rounded = Number(roundedRatio(BigInt(entryTicks - markTicks), BigInt(entryTicks - liquidationTicks), 6).replace('.', ''));
  return Math.max(0, Math.min(1_000_000, rounded));
}
