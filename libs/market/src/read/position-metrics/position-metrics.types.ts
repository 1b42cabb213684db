import { queryTimeMs } from '../query-time.js';
import { InvalidInputError } from '#errors';
import type { Cohort } from '../../cohorts/cohorts.js';

// What the position-metrics routes take and give. Response objects are the API contract's shapes, with
// numbers already converted at the edge (jsonNumber) and times as ISO 8601 with milliseconds.

/** The window a cohort snapshot counts positions in: opened within it before the snapshot's own time (`all`: every open position). */
export const POSITION_RECENCY_TIMEFRAMES = ['all', '24h', '7d', '30d'] as const;
export type PositionRecencyTimeframe = (typeof POSITION_RECENCY_TIMEFRAMES)[number];

/** Default and largest page of the two paged lists (the contract's general page size). */
export const POSITION_METRICS_MAX_LIMIT = 500;

/** The API contract's "Cohort position snapshot". */
export interface CohortPositionMetric {
  createdAt: string;
  coin: string;
  segmentId: number;
  positionCount: number;
  positionCountLong: number;
  totalPositionValue: number;
  totalPositionValueLong: number;
  totalFunding: number;
  totalUnrealizedPnl: number;
  totalPositionSize: number;
  totalPositionSizeLong: number;
}

export interface CohortMetricsPageRequest {
  coin: string;
  segment: number;
  positionRecencyTimeframe?: PositionRecencyTimeframe;
  /** ISO 8601, inclusive bounds on the snapshot time. */
  start?: string;
  end?: string;
  limit?: number;
  nextCursor?: string | null;
}

export interface CohortMetricsPage {
  metrics: CohortPositionMetric[];
  /** Opaque; null on the last page. */
  nextCursor: string | null;
}

export const COIN_SERIES_COLUMNS = [
  'positionCount',
  'positionCountLong',
  'totalPositionValue',
  'totalPositionValueLong',
  'bias',
  'timestamp',
] as const;

/** One row in COIN_SERIES_COLUMNS order: four numbers, the long share by value (null when no value), ISO time. */
export type CoinSeriesRow = [number, number, number, number, number | null, string];

/** The all-cohorts series of a coin: one entry per cohort, rows newest first. */
export interface CoinCohortSeries {
  coin: string;
  data: Array<{ segment: Cohort; metrics: { columns: typeof COIN_SERIES_COLUMNS; data: CoinSeriesRow[] } }>;
}

/** The API contract's "Market-wide snapshot". */
export interface MarketMetric {
  id: number;
  createdAt: string;
  count: number;
  countLong: number;
  countShort: number;
  openInterest: number;
  openInterestLong: number;
  openInterestShort: number;
  perpEquity: number;
  countInProfit: number;
}

export interface MarketMetricsPageRequest {
  /** ISO 8601 UTC, inclusive; `end` defaults to now. */
  start?: string;
  end?: string;
  limit?: number;
  nextCursor?: string | null;
}

export interface MarketMetricsPage {
  metrics: MarketMetric[];
  nextCursor: string | null;
}

/** Inclusive [start, end] bounds, epoch ms (undefined: unbounded); `end` before `start` is a 400 on `end`. */
export function timeBounds(start: string | undefined, end: string | undefined): { start?: number; end?: number } {
  const bounds = {
    start: start === undefined ? undefined : queryTimeMs('start', start),
    end: end === undefined ? undefined : queryTimeMs('end', end),
  };
  if (bounds.start !== undefined && bounds.end !== undefined && bounds.end < bounds.start)
    throw new InvalidInputError('end', 'end must not be before start');
  return bounds;
}
