import pg from 'pg';
import { BuilderActivityRepository, ExchangeVolumeRepository, SNAPSHOT_INTERVAL_MS } from '#market';
import type { AnalyticsDataset } from './analytics-dataset.js';
import { type DatasetInfo, sqlRunner } from './analytics-database.js';
import { projectClosedTrades } from './analytics-closed-trades.js';
import { orderSnapshots } from './analytics-order-snapshots.js';
import { changePoints, rankingsAndPeriods } from './analytics-wallet-histories.js';
import { readDatabaseComment, writeDatabaseComment } from './database-comment.js';

/**
 * The derived tables of the analytics dataset, which the routes over them read: derived from the base
 * tables' fills and wallets, loaded into their database after them and recorded beside them in the
 * database comment: closed trades, builder activity and exchange volume (from the loaded fills by the
 * projector's own reads and writers), PnL and HYPE balance histories as change points
 * (analytics-wallet-histories.ts), and 5-minute open-order snapshots stored as validity intervals
 * (analytics-order-snapshots.ts).
 */

/** Bumped whenever the derived tables' rows change, so older ones are loaded again (the base tables are kept). */
export const DERIVED_TABLES_VERSION = 1;
/** Orders in the book at every snapshot. */
export const OPEN_ORDERS = 50_000;

export interface DerivedTablesSettings {
  version: number;
  openOrders: number;
  /** Days of 5-minute order snapshots, ending at the load's wall-clock time (the routes only serve the last 30 days of the wall clock). */
  orderDays: number;
}

export interface DerivedTablesInfo {
  settings: DerivedTablesSettings;
  /** Epoch ms of the newest order snapshot: the wall clock's 5-minute boundary when the derived tables were loaded. */
  newestSnapshotMs: number;
  loadSeconds: Record<string, number>;
  rows: Record<string, number>;
}

export function derivedTablesSettings(days: number): DerivedTablesSettings {
  return { version: DERIVED_TABLES_VERSION, openOrders: OPEN_ORDERS, orderDays: days };
}

/**
 * The derived tables in the database of the base tables (`base`): reused when the comment records derived
 * tables of these settings (and the oldest of their snapshots a route can still ask for is within their
 * history), else loaded.
 */
export async function ensureDerivedTables(
  databaseUrl: string,
  dataset: AnalyticsDataset,
  base: DatasetInfo,
  progress: (m: string) => void,
): Promise<DerivedTablesInfo & { reused: boolean }> {
  const settings = derivedTablesSettings(dataset.settings.days);
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const comment = (await readDatabaseComment(client)) ?? {};
    const found = comment.derivedTables as DerivedTablesInfo | undefined;
    if (found && JSON.stringify(found.settings) === JSON.stringify(settings)) {
      progress(`reusing the derived tables of the dataset (loaded in ${found.loadSeconds.total} s)`);
      // Derived tables loaded before this step existed get it now (its tables were left empty or stale).
      if (found.loadSeconds[RANKINGS_STEP] === undefined) {
        progress(`derived tables: ${RANKINGS_STEP}...`);
        const started = performance.now();
        await rankingsAndPeriods(sqlRunner(client), dataset);
        found.loadSeconds[RANKINGS_STEP] = Number(((performance.now() - started) / 1000).toFixed(1));
        await writeDatabaseComment(client, { ...comment, derivedTables: found });
      }
      return { ...found, reused: true };
    }
    // The steps an interrupted load of these settings finished are kept (each records itself when done).
    const earlier = comment.derivedTablesSteps as DerivedTablesSteps | undefined;
    const steps: DerivedTablesSteps =
      earlier && JSON.stringify(earlier.settings) === JSON.stringify(settings)
        ? earlier
        : { settings, newestSnapshotMs: Math.floor(Date.now() / SNAPSHOT_INTERVAL_MS) * SNAPSHOT_INTERVAL_MS, loadSeconds: {} };
    const info = await loadDerivedTables(
      client,
      dataset,
      steps,
      async () => writeDatabaseComment(client, { ...base, ...comment, derivedTablesSteps: steps }),
      progress,
    );
    await writeDatabaseComment(client, { ...base, ...comment, derivedTablesSteps: undefined, derivedTables: info });
    return { ...info, reused: false };
  } finally {
    await client.end();
  }
}

const RANKINGS_STEP = "wallet rankings and PnL periods (the state writer's statements)";

/** A load in progress: the steps done, with their seconds. */
interface DerivedTablesSteps {
  settings: DerivedTablesSettings;
  newestSnapshotMs: number;
  loadSeconds: Record<string, number>;
}

async function loadDerivedTables(
  client: pg.ClientBase,
  dataset: AnalyticsDataset,
  steps: DerivedTablesSteps,
  save: () => Promise<void>,
  progress: (m: string) => void,
): Promise<DerivedTablesInfo> {
  const { settings, newestSnapshotMs, loadSeconds } = steps;
  /** Runs a step not done yet: its tables emptied first (a half-done step's rows go), then recorded as done. */
  const step = async (name: string, tables: string | null, work: () => Promise<unknown>): Promise<void> => {
    if (loadSeconds[name] !== undefined) return progress(`derived tables: ${name} done by an earlier run`);
    progress(`derived tables: ${name}...`);
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
  const info: DerivedTablesInfo = {
    settings,
    newestSnapshotMs,
    loadSeconds: { ...loadSeconds, total: Number(total.toFixed(1)) },
    rows: rows[0]!,
  };
  progress(`derived tables loaded in ${info.loadSeconds.total} s: ${JSON.stringify(info.rows)}`);
  return info;
}
