import type { Cohort } from '../../cohorts/cohorts.js';

/**
 * How recently a currently open position was opened, measured back from the latest state update's
 * exchange time (never the wall clock): `24h` takes positions opened at or after that time minus 24
 * hours (a position opened exactly 24 hours before counts), `all` takes every open position.
 */
export const COHORT_POSITION_WINDOWS = ['all', '24h', '7d', '30d'] as const;
export type CohortPositionWindow = (typeof COHORT_POSITION_WINDOWS)[number];

// Figures are JSON numbers (converted from exact decimals at the response edge); ratios are rounded to 8 decimals.

export interface CohortSideSummary {
  side: 'long' | 'short';
  countOpenPositions: number;
  totalValue: number;
}

export interface OpenPerpsSummary {
  /** (long value - short value) / activePerpEquity; null when that equity is not positive. */
  perpBias: number | null;
  /** totalValue / activePerpEquity; null when that equity is not positive. */
  exposureRatio: number | null;
  countOpenPositions: number;
  countTradersInPosition: number;
  countTradersInProfit: number;
  totalValue: number;
  totalLongValue: number;
  totalActivePerpEquity: number;
  /** Always two entries: long, then short. */
  bySide: [CohortSideSummary, CohortSideSummary];
}

/** The same figures as OpenPerpsSummary under the names of the API contract's `summary` block. */
export interface CohortSummaryFigures {
  segmentId: number;
  countTradersInPosition: number;
  perpBias: number | null;
  positionValue: number;
  positionLongValue: number;
  positionShortValue: number;
  exposureRatio: number | null;
  activePerpEquity: number;
}

export interface CohortSummary {
  segment: Cohort;
  openPerpsSummary: OpenPerpsSummary;
  summary: CohortSummaryFigures;
}

/** One cohort's open positions in one coin. */
export interface HeatmapCohortCell {
  segmentId: number;
  coin: string;
  totalValue: number;
  totalLongValue: number;
  totalShortValue: number;
  count: number;
  countLong: number;
  countShort: number;
  /** Long share of the value: totalLongValue / totalValue; null when totalValue is 0. */
  bias: number | null;
}

export interface HeatmapCoin {
  coin: string;
  totalValue: number;
  totalLongValue: number;
  totalShortValue: number;
  count: number;
  countLong: number;
  countShort: number;
  /** Exactly 16 entries, cohort ids 1 to 16 in id order. */
  segments: HeatmapCohortCell[];
}

export interface PositionsHeatmap {
  heatmap: HeatmapCoin[];
}
