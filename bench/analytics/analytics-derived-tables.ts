import pg from 'pg';
import { BuilderActivityRepository, ExchangeVolumeRepository, SNAPSHOT_INTERVAL_MS } from '#market';
import type { AnalyticsDataset } from './analytics-dataset.js';
import { type DatasetInfo, sqlRunner } from './analytics-database.js';
import { projectClosedTrades } from './analytics-closed-trades.js';
import { orderSnapshots } from './analytics-order-snapshots.js';
import { changePoints, rankingsAndPeriods } from './analytics-wallet-histories.js';
import { readDatabaseComment, writeDatabaseComment } from './database-comment.js';

/**
 * Part 2 of the analytics dataset: the tables the part-2 routes (issue 10) read, derived from part 1's
 * fills and wallets, loaded into its database after it and recorded beside it in the database comment:
 * closed trades, builder activity and exchange volume (from the loaded fills by the projector's own reads
 * and writers), PnL and HYPE balance histories as change points (analytics-wallet-histories.ts), and
 * 5-minute open-order snapshots stored as validity intervals (analytics-order-snapshots.ts).
 */

/** Bumped whenever part 2's rows change, so an older part 2 is loaded again (part 1 is kept). */
export const PART2_VERSION = 1;
/** Orders in the book at every snapshot. */
export const OPEN_ORDERS = 50_000;

export interface Part2Settings {
  version: number;
  openOrders: number;
  /** Days of 5-minute order snapshots, ending at the load's wall-clock time (the routes only serve the last 30 days of the wall clock). */
  orderDays: number;
}

export interface Part2Info {
  settings: Part2Settings;
  /** Epoch ms of the newest order snapshot: the wall clock's 5-minute boundary when part 2 was loaded. */
  newestSnapshotMs: number;
  loadSeconds: Record<string, number>;
  rows: Record<string, number>;
}

export function part2Settings(days: number): Part2Settings {
  return { version: PART2_VERSION, openOrders: OPEN_ORDERS, orderDays: days };
}

/**
 * Part 2 in the database of `part1`: reused when the comment records a part 2 of these settings (and the
 * oldest of its snapshots a route can still ask for is within its history), else loaded.
 */
export async function ensurePart2(
  databaseUrl: string,
  dataset: AnalyticsDataset,
  part1: DatasetInfo,
  progress: (m: string) => void,
): Promise<Part2Info & { reused: boolean }> {
  const settings = part2Settings(dataset.settings.days);
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const comment = (await readDatabaseComment(client)) ?? {};
    const found = comment.part2 as Part2Info | undefined;
    if (found && JSON.stringify(found.settings) === JSON.stringify(settings)) {
      progress(`reusing part 2 of the dataset (loaded in ${found.loadSeconds.total} s)`);
      // A part 2 loaded before this step existed gets it now (its tables were left empty or stale).
      if (found.loadSeconds[RANKINGS_STEP] === undefined) {
        progress(`part 2: ${RANKINGS_STEP}...`);
        const started = performance.now();
        await rankingsAndPeriods(sqlRunner(client), dataset);
        found.loadSeconds[RANKINGS_STEP] = Number(((performance.now() - started) / 1000).toFixed(1));
        await writeDatabaseComment(client, { ...comment, part2: found });
      }
      return { ...found, reused: true };
    }
    // The steps an interrupted load of these settings finished are kept (each records itself when done).
    const earlier = comment.part2Steps as Part2Steps | undefined;
    const steps: Part2Steps =
      earlier && JSON.stringify(earlier.settings) === JSON.stringify(settings)
        ? earlier
        : { settings, newestSnapshotMs: Math.floor(Date.now() / SNAPSHOT_INTERVAL_MS) * SNAPSHOT_INTERVAL_MS, loadSeconds: {} };
    const info = await loadPart2(
      client,
      dataset,
      steps,
      async () => writeDatabaseComment(client, { ...part1, ...comment, part2Steps: steps }),
      progress,
    );
    await writeDatabaseComment(client, { ...part1, ...comment, part2Steps: undefined, part2: info });
    return { ...info, reused: false };
  } finally {
    await client.end();
  }
}

const RANKINGS_STEP = "wallet rankings and PnL periods (the state writer's statements)";

/** A load in progress: the steps done, with their seconds. */
interface Part2Steps {
  settings: Part2Settings;
  newestSnapshotMs: number;
  loadSeconds: Record<string, number>;
}

async function loadPart2(
  client: pg.ClientBase,
  dataset: AnalyticsDataset,
  steps: Part2Steps,
  save: () => Promise<void>,
  progress: (m: string) => void,
): Promise<Part2Info> {
  const { settings, newestSnapshotMs, loadSeconds } = steps;
  /** Runs a step not done yet: its tables emptied first (a half-done step's rows go), then recorded as done. */
  const step = async (name: string, tables: string | null, work: () => Promise<unknown>): Promise<void> => {
    if (loadSeconds[name] !== undefined) return progress(`part 2: ${name} done by an earlier run`);
    progress(`part 2: ${name}...`);
    const started = performance.now();
    if (tables) await client.query(`TRUNCATE ${tables}`);
    await work();
    loadSeconds[name] = Number(((performance.now() - started) / 1000).toFixed(1));
    await save();
  };
  const q = sqlRunner(client);
  await client.query(`SET maintenance_work_mem = '1GB'`);
  await client.query(`SET work_mem = '256MB'`);
  const { max } = (await client.query<{ max: string }>(`SELECT max(block_number)::text AS max FROM fills`)).rows[0]!;
  const lastBlock = Number(max);
  await step(
    "builder activity and exchange volume (the projector's writers)",
    'builder_activity_hourly, builder_totals, exchange_volume_hourly',
    async () => {
      await new BuilderActivityRepository().addFills(q, -1, lastBlock);
      await new ExchangeVolumeRepository().addFills(q, -1, lastBlock);
    },
  );
  await step('PnL and HYPE balance change points', null, () => changePoints(client, dataset));
  await step(RANKINGS_STEP, null, () => rankingsAndPeriods(q, dataset));
  await step('order snapshots', 'open_order_intervals, open_order_snapshots, open_orders', () =>
    orderSnapshots(client, dataset, settings, newestSnapshotMs, progress),
  );
  await step(
    "closed trades (the projector's reads, builder and writer)",
    'closed_trades, closed_trade_open_states, projection_checkpoints',
    () => projectClosedTrades(q, dataset, lastBlock, progress),
  );
  await step('vacuum (analyze)', null, () =>
    client.query(
      'VACUUM (ANALYZE) closed_trades, builder_activity_hourly, builder_totals, exchange_volume_hourly, wallet_pnl_history, holder_history, open_order_intervals, open_order_snapshots, open_orders',
    ),
  );
  await step('checkpoint', null, () => client.query('CHECKPOINT'));
  const { rows } = await client.query<Record<string, number>>(
    `SELECT (SELECT count(*) FROM closed_trades)::int AS closed_trades,
            (SELECT count(*) FROM builder_activity_hourly)::int AS builder_activity_hourly,
            (SELECT count(*) FROM builder_totals)::int AS builders,
            (SELECT count(*) FROM wallet_pnl_history)::int AS wallet_pnl_history,
            (SELECT count(*) FROM holder_history)::int AS holder_history,
            (SELECT count(*) FROM open_order_snapshots)::int AS order_snapshots,
            (SELECT count(*) FROM open_order_intervals_closed)::int AS closed_order_versions,
            (SELECT count(*) FROM open_order_intervals_current)::int AS current_order_versions`,
  );
  const total = Object.values(loadSeconds).reduce((a, b) => a + b, 0);
  const info: Part2Info = { settings, newestSnapshotMs, loadSeconds: { ...loadSeconds, total: Number(total.toFixed(1)) }, rows: rows[0]! };
  progress(`part 2 loaded in ${info.loadSeconds.total} s: ${JSON.stringify(info.rows)}`);
  return info;
}
