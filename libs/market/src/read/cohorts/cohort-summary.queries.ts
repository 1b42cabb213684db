import { Injectable } from '@nestjs/common';
import { type SqlRunner, ReadsTables } from '#database';
import type { CohortPositionWindow } from './cohorts.types.js';

/** A cohort's open-position totals; decimals are exact strings, ratios rounded to 8 decimals. */
export interface CohortSummaryRow {
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

/**
 * What the cohort-summary route reads: the latest state update's summary row of the cohort and position
 * age, which that update wrote in its own transaction from the open positions and the wallets' cohorts as
 * they stand now (StateSnapshotsRepository.openPositions).
 */
@Injectable()
@ReadsTables('cohort_summary_snapshots', 'state_updates')
export class CohortSummaryQueries {
  /**
   * One cohort's open positions, summed per wallet and then over the wallets ("traders in position").
   * With a window, a wallet counts only if at least one of its open positions opened at or after the
   * latest state update's time minus the window, and then all of its open positions count: the window
   * picks wallets, so each wallet's figures stay whole, as its own perp_bias column is. The ratios use
   * the wallets table's formulas (round(x, 8), null without positive equity), over the sums. Before the
   * first state update: zeros and nulls.
   */
  async summary(q: SqlRunner, cohortId: number, window: CohortPositionWindow): Promise<CohortSummaryRow> {
    const rows: SummaryRecord[] = await q.query(
      `SELECT coalesce(s.traders, 0) AS traders, coalesce(s.traders_in_profit, 0) AS traders_in_profit, coalesce(s.positions, 0) AS positions,
              coalesce(s.long_positions, 0) AS long_positions, coalesce(s.short_positions, 0) AS short_positions,
              trim_scale(coalesce(s.value, 0))::text AS value, trim_scale(coalesce(s.long_value, 0))::text AS long_value,
              trim_scale(coalesce(s.short_value, 0))::text AS short_value, trim_scale(coalesce(s.active_perp_equity, 0))::text AS active_perp_equity,
              CASE WHEN s.active_perp_equity > 0 THEN trim_scale(round(s.value / s.active_perp_equity, 8))::text END AS exposure_ratio,
              CASE WHEN s.active_perp_equity > 0 THEN trim_scale(round((s.long_value - s.short_value) / s.active_perp_equity, 8))::text END AS perp_bias
       FROM (SELECT 1) one
       LEFT JOIN cohort_summary_snapshots s
         ON s.cohort_id = $1 AND s.position_age = $2 AND s.created_at = (SELECT max(state_time) FROM state_updates)`,
      [cohortId, window],
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
