import { NumericSum, PgNumeric } from '#database';
import { SEGMENT_IDS } from '../../segments/segments.js';
import { NEAR_LIQUIDATION_PROGRESS } from '../state-snapshots.repository.js';
import { segmentOf, type OpenPositionModel, type StateModel, type WalletModel } from './state-model.js';

/**
 * The rows StateSnapshotsRepository's statements insert at an update, computed from the model after it:
 * the same groups and the same sums (exact, each at the largest scale it adds, `0` where the SQL
 * coalesces an empty sum), so the tables read the same whichever wrote them. As the SQL does, positions
 * are summed once per coin, cohort pair, side and age bucket, and the buckets then per timeframe.
 */
export interface SnapshotRows {
  cohorts: Array<[timeframe: string, coin: string, segmentId: number, count: number, countLong: number, value: string, valueLong: string, funding: string, upnl: string, size: string, sizeLong: string, near: string]>;
  summaries: Array<[segmentId: number, age: string, traders: number, inProfit: number, positions: number, longPositions: number, shortPositions: number, value: string, longValue: string, shortValue: string, equity: string]>;
  sizes: Array<[coin: string, sizeSegmentId: number, count: number, value: string, valueLong: string, near: string]>;
  market: [count: number, countLong: number, countShort: number, openInterest: string, openInterestLong: string, openInterestShort: string, perpEquity: string, countInProfit: number];
  equity: [total: string, perp: string, spot: string, staked: string];
}

/** Epoch ms of the state time less 24 hours, 7 days and 30 days, as the database's session computes them. */
export type AgeCutoffs = readonly [day: number, week: number, month: number];

/** Timeframes by the oldest age bucket they take (0: opened within 24 hours, ... 3: older than 30 days). */
const TIMEFRAMES: ReadonlyArray<[name: string, maxAge: number]> = [
  ['24h', 0],
  ['7d', 1],
  ['30d', 2],
  ['all', 3],
];
const NEAR = PgNumeric.parse(NEAR_LIQUIDATION_PROGRESS);
const SEGMENT_KEYS = 17; // cohort ids are 1 to 16

const ageOf = (openTimeMs: number, [day, week, month]: AgeCutoffs): number => (openTimeMs >= day ? 0 : openTimeMs >= week ? 1 : openTimeMs >= month ? 2 : 3);
const isNear = (p: OpenPositionModel): boolean => p.liquidationProgress !== null && p.liquidationProgress.cmp(NEAR) >= 0;

/** The map's entry for `key`, made first if absent. */
function entry<K, V>(map: Map<K, V>, key: K, make: () => V): V {
  let value = map.get(key);
  if (value === undefined) map.set(key, (value = make()));
  return value;
}

/** Sums of positions: count, value, funding, unrealized PnL, size, value near liquidation, and the long side's. */
class PositionSums {
  count = 0;
  countLong = 0;
  readonly value = new NumericSum();
  readonly valueLong = new NumericSum();
  readonly funding = new NumericSum();
  readonly upnl = new NumericSum();
  readonly size = new NumericSum();
  readonly sizeLong = new NumericSum();
  readonly near = new NumericSum();

  add(p: OpenPositionModel): void {
    this.count++;
    this.value.add(p.value);
    this.funding.add(p.funding);
    this.upnl.add(p.unrealizedPnl);
    this.size.add(p.size);
    if (p.long) {
      this.countLong++;
      this.valueLong.add(p.value);
      this.sizeLong.add(p.size);
    }
    if (isNear(p)) this.near.add(p.value);
  }

  addSums(s: PositionSums): void {
    this.count += s.count;
    this.countLong += s.countLong;
    for (const field of ['value', 'valueLong', 'funding', 'upnl', 'size', 'sizeLong', 'near'] as const) this[field].addSum(s[field]);
  }
}

/** A wallet's open positions, then a group of such wallets: what the cohort summary counts. */
class TraderSums {
  traders = 0;
  inProfit = 0;
  positions = 0;
  longPositions = 0;
  shortPositions = 0;
  readonly value = new NumericSum();
  readonly longValue = new NumericSum();
  readonly shortValue = new NumericSum();
  readonly equity = new NumericSum();

  addSums(t: TraderSums): void {
    this.traders += t.traders;
    this.inProfit += t.inProfit;
    this.positions += t.positions;
    this.longPositions += t.longPositions;
    this.shortPositions += t.shortPositions;
    for (const field of ['value', 'longValue', 'shortValue', 'equity'] as const) this[field].addSum(t[field]);
  }
}

interface Trader {
  wallet: WalletModel;
  sums: TraderSums;
  upnl: NumericSum;
  newestOpenMs: number;
}

export function snapshotRows(model: StateModel, cutoffs: AgeCutoffs): SnapshotRows {
  const coins: string[] = [];
  const coinIndex = new Map<string, number>();
  const indexOf = (coin: string): number => entry(coinIndex, coin, () => coins.push(coin) - 1);
  // Keyed by ((((coin * 17 + size cohort) * 17 + pnl cohort) * 2 + long) * 4 + age).
  const buckets = new Map<number, PositionSums>();
  const sizes = new Map<number, PositionSums>(); // coin * 17 + size cohort of the position's value
  const traders = new Map<string, Trader>();
  const market = new PositionSums();
  const marketShort = new NumericSum();
  let countInProfit = 0;

  for (const p of model.openPositions()) {
    const coin = indexOf(p.coin);
    market.add(p);
    if (!p.long) marketShort.add(p.value);
    if (p.unrealizedPnl.sign > 0) countInProfit++;
    entry(sizes, coin * SEGMENT_KEYS + segmentOf('size', p.value), () => new PositionSums()).add(p);

    // The cohorts and their summaries count only positions whose wallet has a row.
    const wallet = model.wallets.get(p.address);
    if (!wallet) continue;
    const key = (((coin * SEGMENT_KEYS + wallet.sizeSegmentId) * SEGMENT_KEYS + wallet.pnlSegmentId) * 2 + (p.long ? 1 : 0)) * 4 + ageOf(p.openTimeMs, cutoffs);
    entry(buckets, key, () => new PositionSums()).add(p);

    const trader = entry(traders, p.address, () => ({ wallet, sums: new TraderSums(), upnl: new NumericSum(), newestOpenMs: p.openTimeMs }));
    const t = trader.sums;
    t.positions++;
    t.value.add(p.value);
    if (p.long) {
      t.longPositions++;
      t.longValue.add(p.value);
    } else {
      t.shortPositions++;
      t.shortValue.add(p.value);
    }
    trader.upnl.add(p.unrealizedPnl);
    trader.newestOpenMs = Math.max(trader.newestOpenMs, p.openTimeMs);
  }

  // Each bucket counts in its size cohort and its pnl cohort, in every timeframe its age is within.
  const cohortRows = new Map<number, PositionSums>(); // (coin * 4 + timeframe) * 17 + cohort
  for (const [key, bucket] of buckets) {
    const age = key % 4;
    const pnlSegment = Math.floor(key / 8) % SEGMENT_KEYS;
    const sizeSegment = Math.floor(key / 8 / SEGMENT_KEYS) % SEGMENT_KEYS;
    const coin = Math.floor(key / 8 / SEGMENT_KEYS / SEGMENT_KEYS);
    TIMEFRAMES.forEach(([, maxAge], timeframe) => {
      if (age > maxAge) return;
      for (const segment of [sizeSegment, pnlSegment]) {
        entry(cohortRows, (coin * 4 + timeframe) * SEGMENT_KEYS + segment, () => new PositionSums()).addSums(bucket);
      }
    });
  }

  // A trader is in an age when its newest open position opened within it; then all its positions count.
  const summaryBuckets = new Map<number, TraderSums>(); // cohort * 4 + age
  for (const { wallet, sums, upnl, newestOpenMs } of traders.values()) {
    sums.traders = 1;
    sums.inProfit = upnl.value().sign > 0 ? 1 : 0;
    sums.equity.add(wallet.perpEquity);
    const age = ageOf(newestOpenMs, cutoffs);
    for (const segment of [wallet.sizeSegmentId, wallet.pnlSegmentId]) {
      entry(summaryBuckets, segment * 4 + age, () => new TraderSums()).addSums(sums);
    }
  }
  const summaries: SnapshotRows['summaries'] = [];
  for (const segment of SEGMENT_IDS) {
    for (const [timeframe, maxAge] of TIMEFRAMES) {
      const s = new TraderSums();
      for (let age = 0; age <= maxAge; age++) {
        const bucket = summaryBuckets.get(segment * 4 + age);
        if (bucket) s.addSums(bucket);
      }
      summaries.push([segment, timeframe, s.traders, s.inProfit, s.positions, s.longPositions, s.shortPositions, `${s.value}`, `${s.longValue}`, `${s.shortValue}`, `${s.equity}`]);
    }
  }

  const [perpEquity, total, spot, staked] = [new NumericSum(), new NumericSum(), new NumericSum(), new NumericSum()];
  for (const w of model.wallets.values()) {
    perpEquity.add(w.perpEquity);
    total.add(w.totalEquity);
    spot.add(w.spotEquity);
    staked.add(w.stakedEquity);
  }

  return {
    cohorts: [...cohortRows].map(([key, s]) => [
      TIMEFRAMES[Math.floor(key / SEGMENT_KEYS) % 4]![0], coins[Math.floor(key / SEGMENT_KEYS / 4)]!, key % SEGMENT_KEYS,
      s.count, s.countLong, `${s.value}`, `${s.valueLong}`, `${s.funding}`, `${s.upnl}`, `${s.size}`, `${s.sizeLong}`, `${s.near}`,
    ]),
    summaries,
    sizes: [...sizes].map(([key, s]) => [coins[Math.floor(key / SEGMENT_KEYS)]!, key % SEGMENT_KEYS, s.count, `${s.value}`, `${s.valueLong}`, `${s.near}`]),
    market: [market.count, market.countLong, market.count - market.countLong, `${market.value}`, `${market.valueLong}`, `${marketShort}`, `${perpEquity}`, countInProfit],
    equity: [`${total}`, `${perpEquity}`, `${spot}`, `${staked}`],
  };
}
