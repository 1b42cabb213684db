import { SeededRandom } from '#exchange';
import { decimal } from '../fills/node-fills.generator.js';
import type { AnalyticsDataset } from './analytics-dataset.js';
import { bigDecimal } from './analytics-decimals.js';

/**
 * The per-update rows of the history before the latest update. The latest update's rows are written by
 * the state writer's own statements from the loaded wallets and positions (analytics-database.ts); each
 * earlier update repeats them scaled by slow random walks (per coin: position count and value; market
 * wide: count, value, equity, the HYPE price), so every series has the latest update's shape and moves
 * plausibly back in time, and counts stay whole and long parts within their totals.
 */

export const STATE_UPDATE_COLUMNS = 'height, state_time, hype_px, wallets, positions, processed_at';
export const COHORT_COLUMNS =
  'created_at, timeframe, coin, cohort_id, position_count, position_count_long, total_position_value, total_position_value_long, ' +
  'total_funding, total_unrealized_pnl, total_position_size, total_position_size_long';
export const SIZE_COLUMNS =
  'created_at, coin, size_cohort_id, position_count, total_position_value, total_position_value_long, value_near_liquidation';
export const MARKET_COLUMNS =
  'created_at, count, count_long, count_short, open_interest, open_interest_long, open_interest_short, perp_equity, count_in_profit';
export const EQUITY_COLUMNS =
  'created_at, total_wallets_equity, perp_wallets_equity, spot_wallets_equity, staking_wallets_equity, vault_wallets_equity';

/** The latest update's snapshot rows as read back (numerics as text). */
export interface LatestSnapshots {
  cohorts: Array<{
    timeframe: string;
    coin: string;
    cohort_id: number;
    position_count: number;
    position_count_long: number;
    total_position_value: string;
    total_position_value_long: string;
    total_funding: string;
    total_unrealized_pnl: string;
    total_position_size: string;
    total_position_size_long: string;
  }>;
  sizes: Array<{
    coin: string;
    size_cohort_id: number;
    position_count: number;
    total_position_value: string;
    total_position_value_long: string;
    value_near_liquidation: string;
  }>;
  market: {
    count: number;
    count_long: number;
    count_in_profit: number;
    open_interest_long: string;
    open_interest_short: string;
    perp_equity: string;
  };
  equity: { perp_wallets_equity: string; spot_wallets_equity: string; staking_wallets_equity: string };
}

/** Factors by update (oldest first), 1 at the latest: a walk back in time by `step`, kept within [low, high]. */
function walk(random: SeededRandom, updates: number, step: number, low: number, high: number): Float64Array {
  const factors = new Float64Array(updates);
  factors[updates - 1] = 1;
  for (let k = updates - 2; k >= 0; k--) factors[k] = Math.min(high, Math.max(low, factors[k + 1]! * (1 + random.normal() * step)));
  return factors;
}

const fixed = (value: number): string => value.toFixed(6);
/** The exact sum of two texts with 6 decimals. */
const sum6 = (a: string, b: string): string => bigDecimal(BigInt(a.replace('.', '')) + BigInt(b.replace('.', '')), 6);

export class SnapshotHistory {
  private readonly counts: Float64Array[];
  private readonly values: Float64Array[];
  private readonly market: { count: Float64Array; value: Float64Array; equity: Float64Array; hype: Float64Array };
  private readonly coinIndex: Map<string, number>;

  constructor(private readonly dataset: AnalyticsDataset) {
    const random = new SeededRandom(dataset.settings.seed + 2);
    const n = dataset.updates;
    this.counts = dataset.coins.map(() => walk(random, n, 0.002, 0.6, 1.4));
    this.values = dataset.coins.map(() => walk(random, n, 0.004, 0.5, 1.6));
    this.market = {
      count: walk(random, n, 0.0015, 0.7, 1.3),
      value: walk(random, n, 0.003, 0.6, 1.5),
      equity: walk(random, n, 0.002, 0.7, 1.3),
      hype: walk(random, n, 0.004, 0.6, 1.6),
    };
    this.coinIndex = new Map(dataset.coins.map((c) => [c.coin, c.index]));
  }

  /** Every update's state_updates row, the latest with the loaded state's own figures. */
  *stateUpdates(openPositions: number): Generator<string> {
    const { dataset } = this;
    const hype = dataset.coins.find((c) => c.coin === 'HYPE')!;
    let chunk = '';
    for (let k = 0; k < dataset.updates; k++) {
      const timeMs = dataset.updateTime(k);
      const latest = k === dataset.updates - 1;
      const hypePx = decimal(latest ? hype.markTicks : Math.round(hype.markTicks * this.market.hype[k]!), hype.pxDecimals);
      const positions = latest ? openPositions : Math.round(openPositions * this.market.count[k]!);
      // Applied about 40 s after its exchange time.
      chunk += `${dataset.heightAt(timeMs)}\t${new Date(timeMs).toISOString()}\t${hypePx}\t${dataset.settings.wallets}\t${positions}\t${new Date(timeMs + 40_000).toISOString()}\n`;
    }
    yield chunk;
  }

  /** cohort_position_snapshots of every update before the latest, one chunk per update. */
  *cohorts(latest: LatestSnapshots): Generator<string> {
    for (let k = 0; k < this.dataset.updates - 1; k++) {
      const at = new Date(this.dataset.updateTime(k)).toISOString();
      let chunk = '';
      for (const r of latest.cohorts) {
        const c = this.coinIndex.get(r.coin)!;
        const [cf, vf] = [this.counts[c]![k]!, this.counts[c]![k]! * this.values[c]![k]!];
        const count = Math.round(r.position_count * cf);
        if (count === 0) continue;
        const value = Number(r.total_position_value) * vf;
        const size = Number(r.total_position_size) * cf;
        chunk +=
          `${at}\t${r.timeframe}\t${r.coin}\t${r.cohort_id}\t${count}\t${Math.min(count, Math.round(r.position_count_long * cf))}\t${fixed(value)}\t` +
          `${fixed(Math.min(value, Number(r.total_position_value_long) * vf))}\t${fixed(Number(r.total_funding) * cf)}\t${fixed(Number(r.total_unrealized_pnl) * vf)}\t` +
          `${fixed(size)}\t${fixed(Math.min(size, Number(r.total_position_size_long) * cf))}\n`;
      }
      yield chunk;
    }
  }

  /** position_size_snapshots of every update before the latest. */
  *sizes(latest: LatestSnapshots): Generator<string> {
    for (let k = 0; k < this.dataset.updates - 1; k++) {
      const at = new Date(this.dataset.updateTime(k)).toISOString();
      let chunk = '';
      for (const r of latest.sizes) {
        const c = this.coinIndex.get(r.coin)!;
        const [cf, vf] = [this.counts[c]![k]!, this.counts[c]![k]! * this.values[c]![k]!];
        const count = Math.round(r.position_count * cf);
        if (count === 0) continue;
        const value = Number(r.total_position_value) * vf;
        chunk += `${at}\t${r.coin}\t${r.size_cohort_id}\t${count}\t${fixed(value)}\t${fixed(Math.min(value, Number(r.total_position_value_long) * vf))}\t${fixed(Math.min(value, Number(r.value_near_liquidation) * vf))}\n`;
      }
      yield chunk;
    }
  }

  /** market_snapshots of every update before the latest (its id comes from the sequence, so they must go in first). */
  *marketSnapshots(latest: LatestSnapshots): Generator<string> {
    const m = latest.market;
    let chunk = '';
    for (let k = 0; k < this.dataset.updates - 1; k++) {
      const [g, v] = [this.market.count[k]!, this.market.count[k]! * this.market.value[k]!];
      const count = Math.round(m.count * g);
      const long = Math.min(count, Math.round(m.count_long * g));
      const [oiLong, oiShort] = [fixed(Number(m.open_interest_long) * v), fixed(Number(m.open_interest_short) * v)];
      chunk +=
        `${new Date(this.dataset.updateTime(k)).toISOString()}\t${count}\t${long}\t${count - long}\t${sum6(oiLong, oiShort)}\t${oiLong}\t${oiShort}\t` +
        `${fixed(Number(m.perp_equity) * this.market.equity[k]!)}\t${Math.min(count, Math.round(m.count_in_profit * g))}\n`;
    }
    yield chunk;
  }

  /** wallets_equity_history of every update before the latest; vaults are not modelled (null), as the writer leaves them. */
  *walletsEquity(latest: LatestSnapshots): Generator<string> {
    const e = latest.equity;
    let chunk = '';
    for (let k = 0; k < this.dataset.updates - 1; k++) {
      const perp = fixed(Number(e.perp_wallets_equity) * this.market.equity[k]!);
      const spot = fixed(Number(e.spot_wallets_equity) * this.market.hype[k]!);
      const staked = fixed(Number(e.staking_wallets_equity) * this.market.hype[k]!);
      chunk += `${new Date(this.dataset.updateTime(k)).toISOString()}\t${sum6(sum6(perp, spot), staked)}\t${perp}\t${spot}\t${staked}\t\\N\n`;
    }
    yield chunk;
  }
}
