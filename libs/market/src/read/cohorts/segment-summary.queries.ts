import { Injectable } from '@nestjs/common';
import type { SqlRunner } from '#database';
import type { SegmentCategory } from '../../segments/segments.js';
import type { CohortPositionWindow } from './cohorts.types.js';

/** A cohort's open-position totals; decimals are exact strings, ratios rounded to 8 decimals. */
export interface SegmentSummaryRow {
  traders: number;
  tradersInProfit: number;
  positions: number;
  longPositions: number;
  shortPositions: number;
  value: string;
  longValue: string;
  shortValue: string;
  activePerpEquity: string;
  /** Null when activePerpEquity <= 0. */
  exposureRatio: string | null;
  perpBias: string | null;
}

interface SummaryRecord {
  traders: number;
  traders_in_profit: number;
  positions: number;
  long_positions: number;
  short_positions: number;
  value: string;
  long_value: string;
  short_value: string;
  active_perp_equity: string;
  exposure_ratio: string | null;
  perp_bias: string | null;
}

/** The wallets column holding a wallet's cohort of each category (a fixed pair: never caller text in SQL). */
const COHORT_COLUMN: Record<SegmentCategory, string> = { size: 'size_segment_id', pnl: 'pnl_segment_id' };

/** Postgres interval of each window; `all` has none. */
const WINDOW_INTERVAL: Record<CohortPositionWindow, string | null> = { all: null, '24h': '24 hours', '7d': '7 days', '30d': '30 days' };

@Injectable()
export class SegmentSummaryQueries {
  /**
   * One cohort's open positions, summed per wallet and then over the wallets ("traders in position").
   * With a window, a wallet counts only if at least one of its open positions opened at or after the
   * latest state update's time minus the window, and then all of its open positions count: the window
   * picks wallets, so each wallet's figures stay whole, as its own perp_bias column is. The ratios use
   * the wallets table's formulas (round(x, 8), null without positive equity), over the sums.
   */
  async summary(q: SqlRunner, segment: { id: number; category: SegmentCategory }, window: CohortPositionWindow): Promise<SegmentSummaryRow> {
    const rows: SummaryRecord[] = await q.query(
      `WITH traders AS (
         SELECT w.address, w.perp_equity,
                count(*) AS positions,
                count(*) FILTER (WHERE p.side = 'long') AS long_positions,
                count(*) FILTER (WHERE p.side = 'short') AS short_positions,
                sum(p.value) AS value,
                coalesce(sum(p.value) FILTER (WHERE p.side = 'long'), 0) AS long_value,
                coalesce(sum(p.value) FILTER (WHERE p.side = 'short'), 0) AS short_value,
                sum(p.unrealized_pnl) AS upnl
         FROM wallets w
         JOIN positions p ON p.address = w.address AND p.close_time IS NULL
         WHERE w.${COHORT_COLUMN[segment.category]} = $1
         GROUP BY w.address, w.perp_equity
         HAVING $2::interval IS NULL OR max(p.open_time) >= (SELECT max(state_time) FROM state_updates) - $2::interval
       ), totals AS (
         SELECT count(*)::int AS traders,
                count(*) FILTER (WHERE upnl > 0)::int AS traders_in_profit,
                coalesce(sum(positions), 0)::int AS positions,
                coalesce(sum(long_positions), 0)::int AS long_positions,
                coalesce(sum(short_positions), 0)::int AS short_positions,
                coalesce(sum(value), 0) AS value,
                coalesce(sum(long_value), 0) AS long_value,
                coalesce(sum(short_value), 0) AS short_value,
                coalesce(sum(perp_equity), 0) AS equity
         FROM traders
       )
       SELECT traders, traders_in_profit, positions, long_positions, short_positions,
              trim_scale(value)::text AS value, trim_scale(long_value)::text AS long_value, trim_scale(short_value)::text AS short_value,
              trim_scale(equity)::text AS active_perp_equity,
              CASE WHEN equity > 0 THEN trim_scale(round(value / equity, 8))::text END AS exposure_ratio,
              CASE WHEN equity > 0 THEN trim_scale(round((long_value - short_value) / equity, 8))::text END AS perp_bias
       FROM totals`,
      [segment.id, WINDOW_INTERVAL[window]],
    );
    const r = rows[0]!;
    return {
      traders: r.traders,
      tradersInProfit: r.traders_in_profit,
      positions: r.positions,
      longPositions: r.long_positions,
      shortPositions: r.short_positions,
      value: r.value,
      longValue: r.long_value,
      shortValue: r.short_value,
      activePerpEquity: r.active_perp_equity,
      exposureRatio: r.exposure_ratio,
      perpBias: r.perp_bias,
    };
  }
}
