import type { DataSource } from 'typeorm';
import type { SqlRunner } from '#database';
import {
  BuildersQueries,
  BuildersService,
  CLOSED_TRADES_DEFAULT_LIMIT,
  ClosedTradesQueries,
  ClosedTradesSummaryQueries,
  COHORTS,
  CohortSummaryQueries,
  LEADERBOARD_DEFAULT_LIMIT,
  LeaderboardsQueries,
  LIQUIDATION_FILLS_DEFAULT_LIMIT,
  LIQUIDATION_RISK_DEFAULT_LIMIT,
  LiquidationFillsQueries,
  LiquidationRiskQueries,
  ORDER_SNAPSHOTS_DEFAULT_LIMIT,
  OrderSnapshotsQueries,
  PNL_FIELDS,
  PositionsQueries,
  WALLET_ORDER_FIELDS,
  WALLETS_DEFAULT_LIMIT,
  WalletsQueries,
} from '#market';
import { type AnalyticsDataset, DAY_MS } from './analytics-dataset.js';

/**
 * The tables a route reads: the base ones only (analytics-database.ts: fills, wallets, positions and the
 * state updates' snapshots), or also those derived from them (analytics-derived-tables.ts: closed trades,
 * builder activity, wallet histories and rankings, order snapshots), loaded only when such a route runs.
 */
export type DatasetTables = 'base' | 'derived';

/** Wallets picked from the loaded data for the routes that take an address. */
export interface QueryInputs {
  /** The wallets with the most liquidation fills. */
  liquidationAddresses: string[];
  /** Wallets holding several open positions. */
  positionWallets: string[];
  /** Derived tables: the wallets with the most closed trades in the last 7 days of the history, and over all of it. */
  closedTradeWallets?: string[];
  busiestTradeWallets?: string[];
  /** Derived tables: the builders with the most fills. */
  builders?: string[];
  /** Derived tables: the oldest order snapshot the routes still serve (30 days before the wall clock, or the oldest stored if newer). */
  oldestSnapshotMs?: number;
}

export interface Endpoint {
  name: string;
  /** Request paths, taken in turn. */
  paths: string[];
  /** A list at its default page size: the p99 target applies. */
  list: boolean;
  /** An export route: answers 302 to its file. */
  redirects?: boolean;
  /** The statement its queries class runs for each path, in the same order, for the SQL ratio. */
  sql?: (q: SqlRunner, i: number) => Promise<unknown>;
  /** What it reads: BENCH_ANALYTICS_ROUTES=base|derived|all picks routes by it. */
  tables: DatasetTables;
}

const API = '/api/external';
/** The historical-positions route's default window: the 24 hours before now. */
const POSITIONS_DEFAULT_WINDOW_MS = DAY_MS;
const POSITIONS_DEFAULT_LIMIT = 500;

/**
 * Eight windows of up to 7 days over the history, newest first: the liquidation-fills filters of a
 * client looking at BTC week by week.
 */
function liquidationWindows(dataset: AnalyticsDataset): Array<{ startMs: number; endMs: number }> {
  const span = dataset.settings.endMs - dataset.startMs;
  const length = Math.min(7 * DAY_MS, span);
  const step = (span - length) / 7;
  return Array.from({ length: 8 }, (_, j) => {
    const endMs = dataset.settings.endMs - Math.round(j * step);
    return { startMs: endMs - length, endMs };
  });
}

export function analyticsEndpoints(dataset: AnalyticsDataset, inputs: QueryInputs, bigCoin: string): Endpoint[] {
  const windows = liquidationWindows(dataset);
  const cohorts = [...COHORTS].sort((a, b) => a.id - b.id);
  const fills = new LiquidationFillsQueries();
  const risk = new LiquidationRiskQueries();
  const summaries = new CohortSummaryQueries();
  const positions = new PositionsQueries();
  const iso = (ms: number) => new Date(ms).toISOString();
  return [
    { name: 'fills/liquidation', paths: [`${API}/fills/liquidation`], list: true, tables: 'base' },
    {
      name: 'fills/liquidation?coin=BTC&start&end',
      paths: windows.map((w) => `${API}/fills/liquidation?coin=BTC&start=${iso(w.startMs)}&end=${iso(w.endMs)}`),
      list: true,
      tables: 'base',
      sql: (q, i) => fills.list(q, { coin: 'BTC', ...windows[i % windows.length]!, limit: LIQUIDATION_FILLS_DEFAULT_LIMIT }),
    },
    {
      name: 'fills/liquidation?address',
      paths: inputs.liquidationAddresses.map((a) => `${API}/fills/liquidation?address=${a}`),
      list: true,
      tables: 'base',
    },
    {
      name: '{segmentId}/assets/liquidation-risk',
      paths: cohorts.map((c) => `${API}/${c.id}/assets/liquidation-risk`),
      list: true,
      tables: 'base',
      sql: (q, i) => {
        const c = cohorts[i % cohorts.length]!;
        return risk.byCoin(q, { cohortId: c.id, offset: 0, limit: LIQUIDATION_RISK_DEFAULT_LIMIT });
      },
    },
    {
      name: 'segments/{id}/summary',
      paths: cohorts.map((c) => `${API}/segments/${c.id}/summary`),
      list: false,
      tables: 'base',
      sql: (q, i) => summaries.summary(q, cohorts[i % cohorts.length]!.id, 'all'),
    },
    { name: 'position-metrics/coin/BTC/segment/4', paths: [`${API}/position-metrics/coin/BTC/segment/4`], list: true, tables: 'base' },
    { name: 'position-metrics/coin/BTC', paths: [`${API}/position-metrics/coin/BTC`], list: false, tables: 'base' },
    { name: 'position-metrics/general', paths: [`${API}/position-metrics/general`], list: true, tables: 'base' },
    { name: 'positions/heatmap', paths: [`${API}/positions/heatmap`], list: false, tables: 'base' },
    { name: 'positions', paths: [`${API}/positions`], list: true, tables: 'base' },
    {
      name: 'positions?address',
      paths: inputs.positionWallets.map((a) => `${API}/positions?address=${a}`),
      list: true,
      tables: 'base',
      sql: (q, i) => {
        const end = Date.now();
        return positions.page(q, {
          start: end - POSITIONS_DEFAULT_WINDOW_MS,
          end,
          addresses: [inputs.positionWallets[i % inputs.positionWallets.length]!],
          limit: POSITIONS_DEFAULT_LIMIT,
        });
      },
    },
    { name: 'coin/BTC/open-positions/history', paths: [`${API}/coin/BTC/open-positions/history`], list: true, tables: 'base' },
    {
      name: `exports/coins/${bigCoin}/liquidation-heatmap (built)`,
      paths: [`${API}/exports/coins/${bigCoin}/liquidation-heatmap`],
      list: false,
      redirects: true,
      tables: 'base',
    },
    {
      name: 'exports/total-wallets-equity-chart-data (built)',
      paths: [`${API}/exports/total-wallets-equity-chart-data`],
      list: false,
      redirects: true,
      tables: 'base',
    },
    {
      name: `exports/coins/${bigCoin}/position-breakdown-by-size (built)`,
      paths: [`${API}/exports/coins/${bigCoin}/position-breakdown-by-size`],
      list: false,
      redirects: true,
      tables: 'base',
    },
    {
      name: `positions/open/coin/${bigCoin} (built)`,
      paths: [`${API}/positions/open/coin/${bigCoin}`],
      list: false,
      redirects: true,
      tables: 'base',
    },
    ...derivedTablesEndpoints(dataset, inputs),
  ];
}

/** The statements of `work` in one transaction at `isolation`, as the services' dataSource.transaction runs them. */
async function inTransaction<T>(q: SqlRunner, isolation: string, work: (q: SqlRunner) => Promise<T>): Promise<T> {
  await q.query(`BEGIN ISOLATION LEVEL ${isolation}`);
  try {
    const value = await work(q);
    await q.query('COMMIT');
    return value;
  } catch (error) {
    await q.query('ROLLBACK');
    throw error;
  }
}

/**
 * The routes over the derived tables: every list at its default page size, the heavy ones with their own SQL.
 * Windows and snapshot times come from the loaded data (it ends at a fixed past time), not the wall clock.
 */
function derivedTablesEndpoints(dataset: AnalyticsDataset, inputs: QueryInputs): Endpoint[] {
  const walletsQueries = new WalletsQueries();
  const trades = new ClosedTradesQueries();
  const summaries = new ClosedTradesSummaryQueries();
  const leaderboards = new LeaderboardsQueries();
  const orders = new OrderSnapshotsQueries();
  const iso = (ms: number) => new Date(ms).toISOString();
  const tradeWallets = inputs.closedTradeWallets ?? [];
  const busiest = inputs.busiestTradeWallets ?? [];
  const builders = inputs.builders ?? [];
  const week = { startTime: dataset.settings.endMs - 7 * DAY_MS, endTime: dataset.settings.endMs };
  // The builder profile's own statements: the service itself, on a data source whose transactions are this client's.
  const profileOn = (q: SqlRunner) =>
    new BuildersService(
      {
        transaction: (isolation: string, work: (q: SqlRunner) => Promise<unknown>) => inTransaction(q, isolation, work),
      } as unknown as DataSource,
      new BuildersQueries(),
    );
  const wallets: Endpoint[] = WALLET_ORDER_FIELDS.map((field) => ({
    name: `wallets?orderBy=${field}`,
    paths: [`${API}/wallets?orderBy=${field}`],
    list: true,
    tables: 'derived',
    sql: (q) =>
      inTransaction(q, 'REPEATABLE READ', (t) =>
        walletsQueries.page(t, { orderBy: field, descending: true, offset: 0, limit: WALLETS_DEFAULT_LIMIT }),
      ),
  }));
  const snapshotPage = async (q: SqlRunner, ms: number | null) => {
    const at = ms ?? Date.parse((await orders.latestSnapshot(q))!.snapshotTs);
    return orders.openAt(q, at, {}, ORDER_SNAPSHOTS_DEFAULT_LIMIT, null);
  };
  const oldest = inputs.oldestSnapshotMs ?? 0;
  return [
    ...wallets,
    {
      name: 'orders/5m-snapshots/latest',
      paths: [`${API}/orders/5m-snapshots/latest`],
      list: true,
      tables: 'derived',
      sql: (q) => snapshotPage(q, null),
    },
    {
      name: 'orders/5m-snapshots/{30 days back}',
      paths: [`${API}/orders/5m-snapshots/${iso(oldest)}`],
      list: true,
      tables: 'derived',
      sql: (q) => snapshotPage(q, oldest),
    },
    {
      name: 'closed-trades?address (last 7 days of the history)',
      paths: tradeWallets.map((a) => `${API}/closed-trades?address=${a}&startTime=${iso(week.startTime)}&endTime=${iso(week.endTime)}`),
      list: true,
      tables: 'derived',
      sql: (q, i) =>
        trades.listByAddress(q, { address: tradeWallets[i % tradeWallets.length]!, ...week, limit: CLOSED_TRADES_DEFAULT_LIMIT }),
    },
    {
      name: 'closed-trades/summary?interval=all',
      paths: busiest.map((a) => `${API}/closed-trades/summary?address=${a}&interval=all`),
      list: false,
      tables: 'derived',
      sql: (q, i) => summaries.aggregate(q, busiest[i % busiest.length]!, { closedSince: null }),
    },
    {
      name: 'leaderboards/all-pnl',
      paths: PNL_FIELDS.map((f) => `${API}/leaderboards/all-pnl?order=desc&orderBy=${f}&rankBy=${f}`),
      list: true,
      tables: 'derived',
      sql: (q, i) => {
        const field = PNL_FIELDS[i % PNL_FIELDS.length]!;
        return inTransaction(q, 'REPEATABLE READ', async (t) => ({
          page: await leaderboards.page(t, {
            orderBy: field,
            descending: true,
            rankBy: field,
            offset: 0,
            limit: LEADERBOARD_DEFAULT_LIMIT,
          }),
          assets: await leaderboards.assets(t),
        }));
      },
    },
    { name: 'hype/holders', paths: [`${API}/hype/holders`], list: true, tables: 'derived' },
    {
      name: 'builders/list/timeframe/{24h,7d,30d,all}',
      paths: ['24h', '7d', '30d', 'all'].map((t) => `${API}/builders/list/timeframe/${t}`),
      list: true,
      tables: 'derived',
    },
    {
      name: 'builders/{builder}/profile',
      paths: builders.map((b) => `${API}/builders/${b}/profile`),
      list: false,
      tables: 'derived',
      sql: (q, i) => profileOn(q).profile(builders[i % builders.length]!),
    },
  ];
}
