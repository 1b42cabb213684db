import { DataSource } from 'typeorm';
import { dataSourceOptions, runMigrations } from '#database';
import { type ExchangeState, type PositionStateRecord, SeededRandom, type WalletStateRecord } from '#exchange';
import { MarketStateWriter, openMarketWriteContext } from '#market';
import { progress, recreateDatabase } from '../support.js';

const WALLETS = Number(process.env.BENCH_STATE_WALLETS ?? 100_000);
const POSITIONS = Number(process.env.BENCH_STATE_POSITIONS ?? 300_000);
const DATABASE_URL = process.env.BENCH_STATE_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/tidewatch_bench_state';
const COINS = Array.from({ length: 60 }, (_, i) => (i < 50 ? `C${i}` : `xyz:S${i}`));
const T0 = Date.UTC(2026, 10, 20, 12, 0, 0);

/**
 * The state of WALLETS wallets holding POSITIONS positions between them (a few each, spread over 60
 * markets), with equities and PnLs across every cohort. `moved` is the next update 15 minutes later:
 * prices moved, and a tenth of the positions closed, flipped or replaced.
 */
function buildState(height: number, timeMs: number, moved: boolean): ExchangeState {
  // The same wallets and positions in both updates; only the moves differ.
  const random = new SeededRandom(1);
  const move = new SeededRandom(moved ? 2 : 3);
  const wallets: WalletStateRecord[] = [];
  let remaining = POSITIONS;
  for (let i = 0; i < WALLETS; i++) {
    const count = i === WALLETS - 1 ? remaining : Math.min(remaining, Math.round((remaining / (WALLETS - i)) * random.between(0.5, 1.5)));
    remaining -= count;
    const equity = 10 ** random.between(1.5, 7.2);
    const positions: PositionStateRecord[] = [];
    const first = (i * 7) % COINS.length;
    for (let k = 0; k < count; k++) {
      const coin = COINS[(first + k * 13) % COINS.length]!;
      const churned = moved && move.next() < 0.1;
      const long = (i + k) % 3 !== 0 ? !churned : churned;
      const entry = 10 + ((i * 31 + k * 17) % 5000) / 7;
      const mark = entry * (moved ? move.between(0.97, 1.03) : move.between(0.99, 1.01));
      const size = (equity * random.between(0.1, 2)) / entry / Math.max(1, count);
      const szi = (long ? size : -size).toFixed(4);
      const value = Math.abs(Number(szi)) * mark;
      positions.push({
        coin: churned && move.next() < 0.5 ? COINS[(first + k * 13 + 1) % COINS.length]! : coin,
        szi,
        entryPx: entry.toFixed(4),
        positionValue: value.toFixed(6),
        unrealizedPnl: (Number(szi) * (mark - entry)).toFixed(6),
        liquidationPx: random.next() < 0.8 ? (long ? entry * 0.7 : entry * 1.3).toFixed(4) : null,
        leverageType: random.next() < 0.9 ? 'cross' : 'isolated',
        leverage: random.int(1, 40),
        marginUsed: (value / 5).toFixed(6),
        fundingSinceOpen: random.between(-50, 50).toFixed(6),
      });
    }
    // Distinct coins per wallet (a churned position may have landed on a coin it already holds).
    const unique = [...new Map(positions.map((p) => [p.coin, p])).values()];
    wallets.push({
      address: `0x${i.toString(16).padStart(40, '0')}`,
      perpEquity: equity.toFixed(6),
      allTimePnl: ((random.next() < 0.5 ? -1 : 1) * 10 ** random.between(0, 6.5)).toFixed(6),
      spotHype: random.next() < 0.3 ? random.between(0, 5000).toFixed(8) : '0',
      stakedHype: random.next() < 0.2 ? random.between(0, 5000).toFixed(8) : '0',
      positions: unique,
    });
  }
  return { height, timeMs, hypePx: '38.5', wallets };
}

/** Peak resident memory of this process while `work` runs, sampled every 20 ms. */
async function withPeakRss<T>(work: () => Promise<T>): Promise<{ result: T; peakRssMb: number }> {
  let peak = process.memoryUsage().rss;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
  try {
    const result = await work();
    return { result, peakRssMb: Math.round(Math.max(peak, process.memoryUsage().rss) / 2 ** 20) };
  } finally {
    clearInterval(timer);
  }
}

/**
 * One full state update of WALLETS wallets and POSITIONS open positions through MarketStateWriter (the
 * ingestor's code): the first one (every row new) and the next (every row updated, a tenth of the
 * positions closed or opened). Target: under 20 s each, ingestor memory under 1 GB.
 */
export async function stateUpdateBenchmark() {
  await recreateDatabase(DATABASE_URL);
  await runMigrations(DATABASE_URL);
  const dataSource = new DataSource(dataSourceOptions(DATABASE_URL));
  await dataSource.initialize();
  const writer = (await openMarketWriteContext(dataSource)).get(MarketStateWriter);
  const rows: Array<Record<string, string | number>> = [];
  try {
    for (const [label, height, timeMs, moved] of [
      ['first update (all rows new)', 1, T0, false],
      ['next update (15 min later, 10% churn)', 2, T0 + 15 * 60_000, true],
    ] as const) {
      progress(`building the state: ${WALLETS} wallets, ${POSITIONS} positions`);
      const { result, peakRssMb } = await withPeakRss(async () => {
        const state = buildState(height, timeMs, moved);
        const started = process.hrtime.bigint();
        progress(`applying: ${label}`);
        const applied = await writer.apply(state);
        return { applied, seconds: Number(process.hrtime.bigint() - started) / 1e9 };
      });
      const { applied, seconds } = result;
      rows.push({
        update: label,
        wallets: applied.wallets,
        positions: applied.positions,
        opened: applied.openedPositions,
        closed: applied.closedPositions,
        'cohort rows': applied.cohortSnapshotRows,
        seconds: seconds.toFixed(2),
        'target s': 20,
        'peak RSS MB': peakRssMb,
        'target MB': 1024,
        'ms per step': Object.entries(applied.timings)
          .map(([step, ms]) => `${step} ${ms}`)
          .join(', '),
      });
    }
  } finally {
    await dataSource.destroy();
  }
  return { name: 'state-update', table: rows };
}
