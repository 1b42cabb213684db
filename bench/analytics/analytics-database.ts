import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { runMigrations, type SqlRunner } from '#database';
import { type FillRow, FillsRepository, StateSnapshotsRepository } from '#market';
import { recreateDatabase } from '../support.js';
import { AnalyticsDataset, type AnalyticsSettings, DATASET_VERSION } from './analytics-dataset.js';
import { FILL_COLUMNS, fillCopyChunks, type FillStats } from './analytics-fills.js';
import {
  COHORT_COLUMNS,
  EQUITY_COLUMNS,
  type LatestSnapshots,
  MARKET_COLUMNS,
  SIZE_COLUMNS,
  SnapshotHistory,
  STATE_UPDATE_COLUMNS,
} from './analytics-history.js';
import { readDatabaseComment, writeDatabaseComment } from './database-comment.js';
import { deferIndexes, schemaSnapshot } from './deferred-indexes.js';
import { POSITION_COLUMNS, positionCopyChunks, WALLET_COLUMNS, walletCopyChunks } from './analytics-state-rows.js';

/** Tables loaded in bulk: their indexes are built once after the load, which is several times faster than keeping them up row by row. */
const BULK_TABLES = ['fills', 'positions', 'cohort_position_snapshots', 'position_size_snapshots'];

export interface DatasetInfo {
  version: number;
  settings: AnalyticsSettings;
  /** Seconds per load step, and in all. */
  loadSeconds: Record<string, number>;
  rows: Record<string, number>;
}

export const sqlRunner = (client: pg.ClientBase): SqlRunner => ({
  query: async (sql, params) => (await client.query(sql, params as unknown[])).rows,
});

async function copyInto(client: pg.ClientBase, target: string, chunks: Iterable<string>): Promise<number> {
  const stream = client.query(copyFrom(`COPY ${target} FROM STDIN`));
  await pipeline(Readable.from(chunks), stream);
  return stream.rowCount;
}

/** What a database comment says of the dataset in it: the marker that it was loaded whole with these settings. */
async function loadedInfo(databaseUrl: string): Promise<DatasetInfo | null> {
  const client = new pg.Client({ connectionString: databaseUrl });
  try {
    await client.connect();
  } catch (error) {
    if ((error as { code?: string }).code === '3D000') return null;
    throw error;
  }
  try {
    return (await readDatabaseComment(client)) as DatasetInfo | null;
  } finally {
    await client.end();
  }
}

/**
 * The analytics dataset in its own database: reused when a completed load with the same generator and
 * settings is there (the database comment, written last, says so), else created empty, migrated and
 * loaded. Pending migrations of a reused database are applied, as the api would at start.
 */
export async function ensureAnalyticsDataset(
  databaseUrl: string,
  settings: AnalyticsSettings,
  progress: (m: string) => void,
): Promise<DatasetInfo & { reused: boolean }> {
  const found = await loadedInfo(databaseUrl);
  if (found && found.version === DATASET_VERSION && JSON.stringify(found.settings) === JSON.stringify(settings)) {
    progress(`reusing the dataset in ${new URL(databaseUrl).pathname.slice(1)} (loaded in ${found.loadSeconds.total} s)`);
    await runMigrations(databaseUrl);
    return { ...found, reused: true };
  }
  return { ...(await loadDataset(databaseUrl, settings, progress)), reused: false };
}

async function loadDataset(databaseUrl: string, settings: AnalyticsSettings, progress: (m: string) => void): Promise<DatasetInfo> {
  const dataset = new AnalyticsDataset(settings);
  const started = performance.now();
  const loadSeconds: Record<string, number> = {};
  let mark = started;
  const step = async <T>(name: string, work: () => Promise<T>): Promise<T> => {
    progress(`${name}...`);
    const value = await work();
    const now = performance.now();
    loadSeconds[name] = Number(((now - mark) / 1000).toFixed(1));
    mark = now;
    return value;
  };

  await step('create and migrate', async () => {
    await recreateDatabase(databaseUrl);
    await runMigrations(databaseUrl);
  });
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const q = sqlRunner(client);
    await client.query(`SET maintenance_work_mem = '1GB'`);
    // The fills writer's own partitioning, one call for the months the history spans (it reads only each row's time).
    const months: FillRow[] = [];
    for (
      let at = new Date(dataset.startMs);
      at.getTime() <= settings.endMs;
      at = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 1))
    ) {
      months.push({ time: at.toISOString() } as FillRow);
    }
    await new FillsRepository().ensurePartitions(q, months);
    const expectedSchema = await schemaSnapshot(client);
    const restoreIndexes = await deferIndexes(client, BULK_TABLES);

    const stats: FillStats = { fills: 0, liquidationFills: 0, lastPrices: new Map() };
    await step('fills (COPY)', () =>
      copyInto(
        client,
        `fills (${FILL_COLUMNS})`,
        reporting(fillCopyChunks(dataset, stats), () => stats.fills, settings.fills, 'fills', progress),
      ),
    );
    await step('wallets and positions (COPY)', async () => {
      await copyInto(client, `wallets (${WALLET_COLUMNS})`, walletCopyChunks(dataset));
      await copyInto(client, `positions (${POSITION_COLUMNS})`, positionCopyChunks(dataset));
      // The change points the writer keeps for a wallet first seen at the first update (holderChanges, pnlChanges):
      // a wallet's PnL and HYPE balances are the same all through the generated history, so there are no others.
      const firstUpdate = new Date(dataset.startMs).toISOString();
      await client.query(
        `INSERT INTO holder_history (address, created_at, spot_amount, staked_amount) SELECT address, $1, spot_hype, staked_hype FROM wallets WHERE spot_hype <> 0 OR staked_hype <> 0`,
        [firstUpdate],
      );
      await client.query(`INSERT INTO wallet_pnl_history (address, created_at, perp_pnl) SELECT address, $1, perp_pnl FROM wallets`, [
        firstUpdate,
      ]);
      await client.query(
        `INSERT INTO market_prices (coin, px, time, block_number) SELECT * FROM unnest($1::text[], $2::numeric[], $3::timestamptz[], $4::bigint[])`,
        [
          [...stats.lastPrices.keys()],
          [...stats.lastPrices.values()].map((p) => p.px),
          [...stats.lastPrices.values()].map((p) => new Date(p.timeMs).toISOString()),
          [...stats.lastPrices.values()].map((p) => p.blockNumber),
        ],
      );
    });
    const openPositions = (await client.query<{ n: number }>(`SELECT count(*)::int AS n FROM positions WHERE close_time IS NULL`)).rows[0]!
      .n;
    await step('state updates and snapshots', async () => {
      const history = new SnapshotHistory(dataset);
      await copyInto(client, `state_updates (${STATE_UPDATE_COLUMNS})`, history.stateUpdates(openPositions));
      await client.query(`ANALYZE positions`);
      await client.query(`ANALYZE wallets`);
      const latest = await latestSnapshots(client, new Date(settings.endMs).toISOString());
      await copyInto(client, `cohort_position_snapshots (${COHORT_COLUMNS})`, history.cohorts(latest));
      await copyInto(client, `position_size_snapshots (${SIZE_COLUMNS})`, history.sizes(latest));
      await copyInto(client, `market_snapshots (${MARKET_COLUMNS})`, history.marketSnapshots(latest));
      await copyInto(client, `wallets_equity_history (${EQUITY_COLUMNS})`, history.walletsEquity(latest));
      // The latest update's rows, by the writer's statements, after the older ones (market_snapshots ids follow time).
      await writeSnapshots(q, new Date(settings.endMs).toISOString());
      const height = dataset.heightAt(settings.endMs);
      await client.query(
        `INSERT INTO state_status (id, latest_height, latest_state_time, processed_height, processed_state_time, processed_at) VALUES (1, $1, $2, $1, $2, $3)`,
        [height, new Date(settings.endMs).toISOString(), new Date(settings.endMs + 40_000).toISOString()],
      );
    });
    await step('indexes', async () => {
      await restoreIndexes();
      const schema = await schemaSnapshot(client);
      if (schema !== expectedSchema)
        throw new Error(`the schema after the load differs from the migrations':\n${diff(expectedSchema, schema)}`);
    });
    await step('vacuum (analyze)', () => client.query('VACUUM (ANALYZE)'));
    // The load leaves gigabytes of dirty pages: written now, not by the checkpointer during the first measurements.
    await step('checkpoint', () => client.query('CHECKPOINT'));
    const rows = await rowCounts(client);
    const info: DatasetInfo = {
      version: DATASET_VERSION,
      settings,
      loadSeconds: { ...loadSeconds, total: Number(((performance.now() - started) / 1000).toFixed(1)) },
      rows,
    };
    await writeDatabaseComment(client, info);
    progress(`dataset loaded in ${info.loadSeconds.total} s: ${JSON.stringify(rows)}`);
    return info;
  } finally {
    await client.end();
  }
}

/**
 * The writer's per-update snapshot statements (MarketStateWriter's 'snapshots' step). The cohort
 * summaries and the value near liquidation are read at the latest update only, so the history before it
 * has none, as a database migrated from before they existed.
 */
async function writeSnapshots(q: SqlRunner, stateTime: string): Promise<void> {
  const snapshots = new StateSnapshotsRepository();
  await snapshots.openPositions(q, stateTime, Number.MAX_SAFE_INTEGER);
  await snapshots.walletsEquity(q, stateTime);
}

/** The latest update's snapshot rows as the writer computes them, read back and rolled back (the history is derived from them). */
async function latestSnapshots(client: pg.ClientBase, stateTime: string): Promise<LatestSnapshots> {
  await client.query('BEGIN');
  try {
    await writeSnapshots(sqlRunner(client), stateTime);
    const read = async <T extends pg.QueryResultRow>(sql: string) => (await client.query<T>(sql, [stateTime])).rows;
    return {
      cohorts: await read(
        `SELECT timeframe, coin, cohort_id::int AS cohort_id, position_count, position_count_long, total_position_value::text, total_position_value_long::text,
                total_funding::text, total_unrealized_pnl::text, total_position_size::text, total_position_size_long::text
         FROM cohort_position_snapshots WHERE created_at = $1 ORDER BY coin, cohort_id, timeframe`,
      ),
      sizes: await read(
        `SELECT coin, size_cohort_id::int AS size_cohort_id, position_count, total_position_value::text, total_position_value_long::text, value_near_liquidation::text
         FROM position_size_snapshots WHERE created_at = $1 ORDER BY coin, size_cohort_id`,
      ),
      market: (
        await read<LatestSnapshots['market']>(
          `SELECT count, count_long, count_in_profit, open_interest_long::text, open_interest_short::text, perp_equity::text FROM market_snapshots WHERE created_at = $1`,
        )
      )[0]!,
      equity: (
        await read<LatestSnapshots['equity']>(
          `SELECT perp_wallets_equity::text, spot_wallets_equity::text, staking_wallets_equity::text FROM wallets_equity_history WHERE created_at = $1`,
        )
      )[0]!,
    };
  } finally {
    await client.query('ROLLBACK');
    // The rolled-back row took an id: the history's rows start from 1 again.
    await client.query(`SELECT setval(pg_get_serial_sequence('market_snapshots', 'id'), 1, false)`);
  }
}

async function rowCounts(client: pg.ClientBase): Promise<Record<string, number>> {
  const { rows } = await client.query<Record<string, number>>(
    `SELECT (SELECT count(*) FROM wallets)::int AS wallets,
            (SELECT count(*) FROM positions WHERE close_time IS NULL)::int AS open_positions,
            (SELECT count(*) FROM positions WHERE close_time IS NOT NULL)::int AS closed_positions,
            (SELECT max(n) FROM (SELECT count(*) AS n FROM positions WHERE close_time IS NULL GROUP BY coin) c)::int AS most_open_positions_in_a_coin,
            (SELECT count(DISTINCT coin) FROM positions)::int AS coins,
            (SELECT count(*) FROM fills)::int AS fills,
            (SELECT count(*) FROM fills WHERE liquidated_user IS NOT NULL)::int AS liquidation_fills,
            (SELECT count(*) FROM state_updates)::int AS state_updates,
            (SELECT count(*) FROM cohort_position_snapshots)::int AS cohort_position_snapshots,
            (SELECT count(*) FROM position_size_snapshots)::int AS position_size_snapshots`,
  );
  return rows[0]!;
}

/** Progress of a COPY's source every tenth of `expected`. */
function* reporting(
  chunks: Iterable<string>,
  done: () => number,
  expected: number,
  what: string,
  progress: (m: string) => void,
): Generator<string> {
  const started = performance.now();
  let next = expected / 10;
  for (const chunk of chunks) {
    yield chunk;
    if (done() >= next) {
      progress(`${done()} of ${expected} ${what}, ${Math.round(done() / ((performance.now() - started) / 1000))}/s`);
      next += expected / 10;
    }
  }
}

function diff(expected: string, actual: string): string {
  const [a, b] = [new Set(expected.split('\n')), new Set(actual.split('\n'))];
  return [...[...a].filter((l) => !b.has(l)).map((l) => `- ${l}`), ...[...b].filter((l) => !a.has(l)).map((l) => `+ ${l}`)].join('\n');
}
