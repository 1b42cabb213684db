import type { SqlRunner } from '#database';
import {
  LIQUIDATION_FILLS_DEFAULT_LIMIT,
  LIQUIDATION_RISK_DEFAULT_LIMIT,
  LiquidationFillsQueries,
  LiquidationRiskQueries,
  PositionsQueries,
  SEGMENTS,
  SegmentSummaryQueries,
} from '#market';
import { type AnalyticsDataset, DAY_MS } from './analytics-dataset.js';

/** Wallets picked from the loaded data for the routes that take an address. */
export interface QueryInputs {
  /** The wallets with the most liquidation fills. */
  liquidationAddresses: string[];
  /** Wallets holding several open positions. */
  positionWallets: string[];
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
  const segments = [...SEGMENTS].sort((a, b) => a.id - b.id);
  const fills = new LiquidationFillsQueries();
  const risk = new LiquidationRiskQueries();
  const summaries = new SegmentSummaryQueries();
  const positions = new PositionsQueries();
  const iso = (ms: number) => new Date(ms).toISOString();
  return [
    { name: 'fills/liquidation', paths: [`${API}/fills/liquidation`], list: true },
    {
      name: 'fills/liquidation?coin=BTC&start&end',
      paths: windows.map((w) => `${API}/fills/liquidation?coin=BTC&start=${iso(w.startMs)}&end=${iso(w.endMs)}`),
      list: true,
      sql: (q, i) => fills.list(q, { coin: 'BTC', ...windows[i % windows.length]!, limit: LIQUIDATION_FILLS_DEFAULT_LIMIT }),
    },
    { name: 'fills/liquidation?address', paths: inputs.liquidationAddresses.map((a) => `${API}/fills/liquidation?address=${a}`), list: true },
    {
      name: '{segmentId}/assets/liquidation-risk',
      paths: segments.map((s) => `${API}/${s.id}/assets/liquidation-risk`),
      list: true,
      sql: (q, i) => {
        const s = segments[i % segments.length]!;
        return risk.byCoin(q, { segmentId: s.id, offset: 0, limit: LIQUIDATION_RISK_DEFAULT_LIMIT });
      },
    },
    {
      name: 'segments/{id}/summary',
      paths: segments.map((s) => `${API}/segments/${s.id}/summary`),
      list: false,
      sql: (q, i) => summaries.summary(q, segments[i % segments.length]!.id, 'all'),
    },
    { name: 'position-metrics/coin/BTC/segment/4', paths: [`${API}/position-metrics/coin/BTC/segment/4`], list: true },
    { name: 'position-metrics/coin/BTC', paths: [`${API}/position-metrics/coin/BTC`], list: false },
    { name: 'position-metrics/general', paths: [`${API}/position-metrics/general`], list: true },
    { name: 'positions/heatmap', paths: [`${API}/positions/heatmap`], list: false },
    { name: 'positions', paths: [`${API}/positions`], list: true },
    {
      name: 'positions?address',
      paths: inputs.positionWallets.map((a) => `${API}/positions?address=${a}`),
      list: true,
      sql: (q, i) => {
        const end = Date.now();
        return positions.page(q, { start: end - POSITIONS_DEFAULT_WINDOW_MS, end, addresses: [inputs.positionWallets[i % inputs.positionWallets.length]!], limit: POSITIONS_DEFAULT_LIMIT });
      },
    },
    { name: 'coin/BTC/open-positions/history', paths: [`${API}/coin/BTC/open-positions/history`], list: true },
    { name: `exports/coins/${bigCoin}/liquidation-heatmap (built)`, paths: [`${API}/exports/coins/${bigCoin}/liquidation-heatmap`], list: false, redirects: true },
    { name: 'exports/total-wallets-equity-chart-data (built)', paths: [`${API}/exports/total-wallets-equity-chart-data`], list: false, redirects: true },
    { name: `exports/coins/${bigCoin}/position-breakdown-by-size (built)`, paths: [`${API}/exports/coins/${bigCoin}/position-breakdown-by-size`], list: false, redirects: true },
    { name: `positions/open/coin/${bigCoin} (built)`, paths: [`${API}/positions/open/coin/${bigCoin}`], list: false, redirects: true },
  ];
}
