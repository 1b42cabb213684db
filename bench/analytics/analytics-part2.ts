import pg from 'pg';
import type { SqlRunner } from '#database';
import { BuilderActivityRepository } from '../../libs/market/src/builders/builder-activity.repository.js';
import { ExchangeVolumeRepository } from '../../libs/market/src/builders/exchange-volume.repository.js';
import { ClosedTradeBuilder } from '../../libs/market/src/closed-trades/closed-trade.builder.js';
import type { ClosedTrade } from '../../libs/market/src/closed-trades/closed-trade.types.js';
import { ClosedTradesRepository } from '../../libs/market/src/closed-trades/closed-trades.repository.js';
import { SNAPSHOT_INTERVAL_MS } from '../../libs/market/src/orders/snapshot-grid.js';
import { ProjectionCheckpointRepository } from '../../libs/market/src/projections/projection-checkpoint.repository.js';
import { StateSnapshotsRepository } from '../../libs/market/src/state/state-snapshots.repository.js';
import { WalletStateRepository } from '../../libs/market/src/state/wallet-state.repository.js';
import type { ProjectedFill } from '../../libs/market/src/projections/projection-inputs.repository.js';
import { type AnalyticsDataset, BLOCK_MS, FIRST_HEIGHT, STATE_INTERVAL_MS } from './analytics-dataset.js';
import { type DatasetInfo, sqlRunner } from './analytics-database.js';
import { deferIndexes } from './deferred-indexes.js';

/**
 * Part 2 of the analytics dataset (the part-2 routes' tables), loaded into the part-1 database after it
 * and recorded beside it in the database comment: closed trades, builder activity and exchange volume
 * (from the loaded fills by the projector's own reads and writers), PnL and HYPE balance histories as
 * change points, and 5-minute open-order snapshots stored as validity intervals.
 */

/** Bumped whenever part 2's rows change, so an older part 2 is loaded again (part 1 is kept). */
export const PART2_VERSION = 1;
/** Orders in the book at every snapshot. */
export const OPEN_ORDERS = 50_000;
/** Wallets that own the orders (a book has far fewer makers than wallets). */
const ORDER_WALLETS = 5_000;
/** Blocks per read of a closed-trades pass (about 140,000 fills of all coins at the default scale). */
const PROJECTION_BLOCKS = 200_000;
/** Passes of the closed trades, each over a share of the coins: a builder's open trades of all of them outgrow the heap. */
const COIN_GROUPS = 4;
/** The projector's checkpoint name for the node feed (`fills:<EXCHANGE_SOURCE>`). */
const PROJECTION = 'fills:node';
/** Most wallets' PnL and HYPE balances change a few times over the history: up to this many change points. */
const MAX_CHANGES = 6;

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
    const comment = await readComment(client);
    const found = comment.part2 as Part2Info | undefined;
    if (found && JSON.stringify(found.settings) === JSON.stringify(settings)) {
      progress(`reusing part 2 of the dataset (loaded in ${found.loadSeconds.total} s)`);
      // A part 2 loaded before this step existed gets it now (its tables were left empty or stale).
      if (found.loadSeconds[RANKINGS_STEP] === undefined) {
        progress(`part 2: ${RANKINGS_STEP}...`);
        const started = performance.now();
        await rankingsAndPeriods(sqlRunner(client), dataset);
        found.loadSeconds[RANKINGS_STEP] = Number(((performance.now() - started) / 1000).toFixed(1));
        await writeComment(client, { ...comment, part2: found });
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
      async () => writeComment(client, { ...part1, ...comment, part2Steps: steps }),
      progress,
    );
    await writeComment(client, { ...part1, ...comment, part2Steps: undefined, part2: info });
    return { ...info, reused: false };
  } finally {
    await client.end();
  }
}

const RANKINGS_STEP = "wallet rankings and PnL periods (the state writer's statements)";

/**
 * What the state writer derives from the wallets and the PnL history at each update, for the latest one:
 * the wallets list's rankings and the leaderboard's day, week and month PnL. Without them the wallets
 * list sorts every wallet at each request and the leaderboard's periods are all zero.
 */
async function rankingsAndPeriods(q: SqlRunner, dataset: AnalyticsDataset): Promise<void> {
  const stateTime = new Date(dataset.settings.endMs).toISOString();
  await new WalletStateRepository().writeRankings(q, stateTime);
  await new StateSnapshotsRepository().pnlPeriods(q, stateTime);
  await q.query('VACUUM (ANALYZE) wallet_rankings, wallet_rankings_status, wallet_pnl_periods');
}

/** A load in progress: the steps done, with their seconds. */
interface Part2Steps {
  settings: Part2Settings;
  newestSnapshotMs: number;
  loadSeconds: Record<string, number>;
}

async function readComment(client: pg.ClientBase): Promise<Record<string, unknown>> {
  const { rows } = await client.query<{ comment: string | null }>(
    `SELECT shobj_description(oid, 'pg_database') AS comment FROM pg_database WHERE datname = current_database()`,
  );
  const comment = rows[0]?.comment;
  return comment?.startsWith('{') ? (JSON.parse(comment) as Record<string, unknown>) : {};
}

async function writeComment(client: pg.ClientBase, value: unknown): Promise<void> {
  const { rows } = await client.query<{ name: string }>(`SELECT current_database() AS name`);
  await client.query(`COMMENT ON DATABASE "${rows[0]!.name}" IS ${client.escapeLiteral(JSON.stringify(value))}`);
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

/**
 * The fill projector's closed-trade work over every loaded fill: the ClosedTradeBuilder fed in its order
 * (time, tid, address) and its insert, with its checkpoint at the end. A builder over all 10 million fills
 * holds the open trade of every (wallet, coin) and outgrows the heap, so the coins are taken in groups,
 * each in its own pass with a builder of its own: a trade is of one (wallet, coin), so the trades are the
 * same. The read is the projector's (ProjectionInputsRepository.fills) with the group's coins as one more
 * condition. The builder's open trades are not written to closed_trade_open_states (no route reads them).
 * The generated history has no funding payments.
 */
async function projectClosedTrades(
  q: SqlRunner,
  dataset: AnalyticsDataset,
  lastBlock: number,
  progress: (m: string) => void,
): Promise<number> {
  const repository = new ClosedTradesRepository();
  const groups = Array.from({ length: COIN_GROUPS }, (_, g) => dataset.coins.filter((c) => c.index % COIN_GROUPS === g).map((c) => c.coin));
  let [fills, inserted] = [0, 0];
  let lastFillTime: number | null = null;
  for (const coins of groups) {
    const builder = new ClosedTradeBuilder();
    for (let after = -1; after < lastBlock; after += PROJECTION_BLOCKS) {
      const window = await groupFills(q, after, Math.min(lastBlock, after + PROJECTION_BLOCKS), coins);
      const closed: ClosedTrade[] = [];
      for (const fill of window) {
        try {
          closed.push(...builder.add(fill.address, fill));
        } catch (error) {
          // As the projector: a fill older than the last of its key is left out.
          if (!(error instanceof RangeError)) throw error;
        }
      }
      for (let i = 0; i < closed.length; i += 10_000) inserted += await repository.insert(q, closed.slice(i, i + 10_000));
      fills += window.length;
      if (window.length > 0) lastFillTime = Math.max(lastFillTime ?? 0, window[window.length - 1]!.time);
    }
    progress(`part 2: ${fills} fills projected, ${inserted} closed trades`);
  }
  // The projector's checkpoint: the builder routes take the newest projected fill as their "now".
  const checkpoints = new ProjectionCheckpointRepository();
  await checkpoints.lock(q, PROJECTION);
  await checkpoints.save(q, PROJECTION, { fillsBlock: lastBlock, fundingBlock: null, lastFillTime });
  return inserted;
}

/** ProjectionInputsRepository.fills of blocks (after, upTo], of the given coins only. */
async function groupFills(q: SqlRunner, after: number, upTo: number, coins: string[]): Promise<ProjectedFill[]> {
  const rows: Array<Record<string, string>> = await q.query(
    `SELECT lower(address) AS address, coin, px::text AS px, sz::text AS sz, side, (extract(epoch FROM time) * 1000)::bigint AS time,
            start_position::text AS start_position, closed_pnl::text AS closed_pnl, fee::text AS fee, tid, hash, oid
     FROM fills WHERE block_number > $1 AND block_number <= $2 AND coin = ANY($3)
     ORDER BY time, tid, address`,
    [after, upTo, coins],
  );
  return rows.map((r) => ({
    address: r.address!,
    coin: r.coin!,
    px: r.px!,
    sz: r.sz!,
    side: r.side as 'A' | 'B',
    time: Number(r.time),
    startPosition: r.start_position!,
    closedPnl: r.closed_pnl!,
    fee: r.fee!,
    tid: Number(r.tid),
    hash: r.hash!,
    oid: Number(r.oid),
  }));
}

/**
 * PnL and HYPE balances as the state writer keeps them: a row at the first update, then a row at each
 * update where the value changed. Each wallet gets up to MAX_CHANGES changes at updates of its own, its
 * value stepping to the loaded one (the newest row is the wallets row's value), so a leaderboard's day,
 * week and month PnL and the holders' 24 h and 7 d balances differ from wallet to wallet.
 */
async function changePoints(client: pg.ClientBase, dataset: AnalyticsDataset): Promise<void> {
  const params = [new Date(dataset.startMs).toISOString(), `${STATE_INTERVAL_MS / 1000} seconds`, dataset.updates - 1, MAX_CHANGES + 1];
  // c: the change updates (1..updates-1) of each wallet, numbered i = 1..k oldest first; k: their count.
  const changes = (salt: number, having: string) => `
    WITH c AS (
      SELECT DISTINCT w.address, 1 + abs(hashint8(hashtext(w.address)::bigint * 31 + j + ${salt})) % $3 AS u
      FROM wallets w CROSS JOIN LATERAL generate_series(1, abs(hashtext(w.address || '${salt}')) % $4) j
      WHERE ${having}
    ),
    r AS (SELECT address, u, row_number() OVER (PARTITION BY address ORDER BY u) AS i, count(*) OVER (PARTITION BY address) AS k FROM c),
    k AS (SELECT address, max(k) AS k FROM r GROUP BY address),
    points AS (
      SELECT address, $1::timestamptz AS created_at, 0 AS i, k FROM k
      UNION ALL
      SELECT address, $1::timestamptz + u * $2::interval, i, k FROM r
    )`;
  await client.query(`DELETE FROM wallet_pnl_history`);
  // Wallets without a change keep their single first-update row.
  await client.query(
    `${changes(1, 'true')}
     INSERT INTO wallet_pnl_history (address, created_at, perp_pnl)
     SELECT w.address, coalesce(p.created_at, $1::timestamptz),
            w.perp_pnl - coalesce(p.k - p.i, 0) * round((abs(hashtext(w.address)) % 2000000 - 1000000) / 100.0 + w.perp_pnl * 0.02, 6)
     FROM wallets w LEFT JOIN points p ON p.address = w.address`,
    params,
  );
  await client.query(`DELETE FROM holder_history`);
  // Balances grow toward the loaded ones (never below zero), spot by a tenth and staked by a twentieth a step.
  await client.query(
    `${changes(2, 'w.spot_hype <> 0 OR w.staked_hype <> 0')}
     INSERT INTO holder_history (address, created_at, spot_amount, staked_amount)
     SELECT w.address, coalesce(p.created_at, $1::timestamptz),
            greatest(0, w.spot_hype - coalesce(p.k - p.i, 0) * round(w.spot_hype / 10, 8)),
            greatest(0, w.staked_hype - coalesce(p.k - p.i, 0) * round(w.staked_hype / 20, 8))
     FROM wallets w LEFT JOIN points p ON p.address = w.address
     WHERE w.spot_hype <> 0 OR w.staked_hype <> 0`,
    params,
  );
}

/**
 * 30 days (the retention) of 5-minute snapshots of a book of `openOrders` orders, as the open-orders
 * writer leaves them: snapshot rows, one version per order state with its validity interval (closed ones
 * in the closed partition, the book's in the current one), the versions that closed at or before the
 * oldest kept snapshot already dropped, and the live book. Order slot s changes every 6 to 16 snapshots
 * (about 10 % of the book per snapshot); 7 changes in 10 replace the order by a new one (a new oid), the
 * others are a partial fill (a new version of the same oid with 60 % of its size). Generated by one
 * statement in Postgres: 43 million versions at the default settings, with the closed partition's
 * indexes built after the load.
 */
async function orderSnapshots(
  client: pg.ClientBase,
  dataset: AnalyticsDataset,
  settings: Part2Settings,
  newestMs: number,
  progress: (m: string) => void,
): Promise<void> {
  const snapshots = (settings.orderDays * 86_400_000) / SNAPSHOT_INTERVAL_MS;
  const oldestMs = newestMs - snapshots * SNAPSHOT_INTERVAL_MS;
  const coins = dataset.coins;
  await client.query(`CREATE TEMP TABLE bench_order_coins (i int PRIMARY KEY, coin text, px numeric, px_decimals int)`);
  await client.query(`INSERT INTO bench_order_coins SELECT * FROM unnest($1::int[], $2::text[], $3::numeric[], $4::int[])`, [
    coins.map((c) => c.index),
    coins.map((c) => c.coin),
    coins.map((c) => (c.markTicks / 10 ** c.pxDecimals).toFixed(c.pxDecimals)),
    coins.map((c) => c.pxDecimals),
  ]);
  await client.query(
    `CREATE TEMP TABLE bench_order_wallets AS SELECT (row_number() OVER (ORDER BY md5(address)) - 1)::int AS i, address FROM wallets ORDER BY md5(address) LIMIT ${ORDER_WALLETS}`,
  );
  await client.query(
    `CREATE TEMP TABLE bench_order_builders AS SELECT (row_number() OVER (ORDER BY builder) - 1)::int AS i, builder FROM builder_totals`,
  );
  await client.query(`ALTER TABLE bench_order_wallets ADD PRIMARY KEY (i)`);
  const wallets = (await client.query<{ n: number }>(`SELECT count(*)::int AS n FROM bench_order_wallets`)).rows[0]!.n;
  const builders = (await client.query<{ n: number }>(`SELECT count(*)::int AS n FROM bench_order_builders`)).rows[0]!.n;

  await client.query(`INSERT INTO open_order_snapshots (snapshot_ts, height, order_count)
                      SELECT to_timestamp(t / 1000.0), ${FIRST_HEIGHT} + (t - ${dataset.startMs}) / ${BLOCK_MS}, ${settings.openOrders}
                      FROM generate_series(${oldestMs}::bigint, ${newestMs}::bigint, ${SNAPSHOT_INTERVAL_MS}) t`);

  const restore = await deferIndexes(client, ['open_order_intervals', 'open_order_intervals_closed']);
  // Version m of slot s ends at snapshot c_end = phase + m * period (open when that is past the newest) and
  // began `period` snapshots earlier; those ending at or before the oldest snapshot are retention's.
  // Snapshot n is at oldestMs + n * 5 min. h: the order's own random number.
  const T = (n: string) =>
    `'${new Date(oldestMs).toISOString()}'::timestamptz + (${n}) * interval '${SNAPSHOT_INTERVAL_MS / 1000} seconds'`;
  await client.query(
    `INSERT INTO open_order_intervals (address, oid, coin, side, limit_px, sz, orig_sz, timestamp, trigger_condition, is_trigger, trigger_px, children,
                                       is_position_tpsl, reduce_only, order_type, tif, cloid, builder, builder_fee, height, valid_from, valid_to)
     SELECT w.address, 300000000000 + v.s + ${settings.openOrders}::bigint * v.o, c.coin, CASE WHEN h % 2 = 0 THEN 'B' ELSE 'A' END,
            r.px,
            CASE WHEN v.partial THEN (h % 500000 + 1000) * 0.0006 ELSE (h % 500000 + 1000) * 0.001 END,
            (h % 500000 + 1000) * 0.001,
            ${T('v.order_start')} - ((h % 290) || ' seconds')::interval,
            CASE WHEN h % 10 = 0 THEN 'Price above ' || r.px ELSE 'N/A' END, h % 10 = 0, CASE WHEN h % 10 = 0 THEN r.px ELSE 0 END,
            '[]'::jsonb, h % 20 = 0, h % 10 = 0,
            CASE WHEN h % 10 = 0 THEN (ARRAY['Stop Market', 'Stop Limit', 'Take Profit Market', 'Take Profit Limit'])[(h / 10 % 4)::int + 1] ELSE 'Limit' END,
            CASE WHEN h % 10 = 0 THEN NULL WHEN h % 3 = 0 THEN 'Alo' ELSE 'Gtc' END,
            CASE WHEN h % 2 = 1 THEN '0x' || md5(v.s || ':' || v.o) END,
            CASE WHEN h % 10 = 3 AND ${builders} > 0 THEN b.builder END, CASE WHEN h % 10 = 3 AND ${builders} > 0 THEN 10 END,
            ${FIRST_HEIGHT} + ((${oldestMs} + v.c_start::bigint * ${SNAPSHOT_INTERVAL_MS}) - ${dataset.startMs}) / ${BLOCK_MS} - h % 3000,
            ${T('v.c_start')}, CASE WHEN v.c_end <= ${snapshots} THEN ${T('v.c_end')} END
     FROM (
       SELECT s, m, phase + m * period AS c_end, phase + (m - 1) * period AS c_start,
              7 * (m / 10) + (ARRAY[0, 0, 1, 2, 2, 3, 4, 4, 5, 6])[(m % 10)::int + 1] AS o, m % 10 IN (1, 4, 7) AS partial,
              phase + (m - CASE WHEN m % 10 IN (1, 4, 7) THEN 2 ELSE 1 END) * period AS order_start
       FROM (SELECT s, 6 + (s * 7919) % 11 AS period, (s * 104729) % (6 + (s * 7919) % 11) AS phase FROM generate_series(0::bigint, ${settings.openOrders - 1}) s) slot
       CROSS JOIN LATERAL generate_series(CASE WHEN phase = 0 THEN 1 ELSE 0 END, (${snapshots} - phase) / period + 1) m
     ) v
     CROSS JOIN LATERAL (SELECT abs(hashint8(v.s * 1000003 + v.o)) AS h) hh
     JOIN bench_order_wallets w ON w.i = v.s % ${wallets}
     JOIN bench_order_coins c ON c.i = (v.s * 31 + v.o) % ${coins.length}
     CROSS JOIN LATERAL (SELECT round(c.px * (1 + (h % 2001 - 1000) / 20000.0), c.px_decimals) AS px) r
     LEFT JOIN bench_order_builders b ON b.i = h / 10 % greatest(${builders}, 1)`,
  );
  progress('part 2: order versions written, indexes...');
  await restore();
  // The live book: the current versions, each last changed for the snapshot that showed it.
  await client.query(
    `INSERT INTO open_orders (address, oid, coin, side, limit_px, sz, orig_sz, timestamp, trigger_condition, is_trigger, trigger_px, children,
                              is_position_tpsl, reduce_only, order_type, tif, cloid, builder, builder_fee, height, gone, pending_for)
     SELECT address, oid, coin, side, limit_px, sz, orig_sz, timestamp, trigger_condition, is_trigger, trigger_px, children,
            is_position_tpsl, reduce_only, order_type, tif, cloid, builder, builder_fee, height, false, valid_from
     FROM open_order_intervals_current`,
  );
  await client.query(`DROP TABLE bench_order_coins, bench_order_wallets, bench_order_builders`);
}
