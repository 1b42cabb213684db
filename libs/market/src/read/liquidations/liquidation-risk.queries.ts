import { Injectable } from '@nestjs/common';
import { type SqlRunner, ReadsTables } from '#database';
import type { LiquidationRiskRecords } from './liquidations.types.js';

export interface LiquidationRiskQuery {
  cohortId: number;
  offset: number;
  limit: number;
}

interface RiskRow {
  total_count: number;
  coin: string | null;
  total_value: string | null;
  risk_value: string | null;
  percent_risk: string | null;
}

/**
 * What the liquidation-risk route reads: the latest state update's cohort snapshots of every coin
 * (timeframe `all`), which that update wrote in its own transaction from the open positions and the
 * wallets' cohorts as they stand now, with the value near liquidation beside the total
 * (StateSnapshotsRepository.openPositions). A cohort with no position in a coin has no row.
 */
@Injectable()
@ReadsTables('cohort_position_snapshots', 'state_updates')
export class LiquidationRiskQueries {
  /**
   * One page of the coins a cohort holds open positions in, by total value descending and coin ascending
   * (byte order), with the number of such coins. One row comes back even when the page is empty, so the
   * count is always read; the percentage is exact numeric, rounded to 8 places.
   */
  async byCoin(q: SqlRunner, query: LiquidationRiskQuery): Promise<LiquidationRiskRecords> {
    const rows: RiskRow[] = await q.query(
      `WITH per_coin AS (
         SELECT coin, total_position_value AS total_value, value_near_liquidation AS risk_value
         FROM cohort_position_snapshots
         WHERE created_at = (SELECT max(state_time) FROM state_updates) AND timeframe = 'all' AND cohort_id = $1
       )
       SELECT (SELECT count(*)::int FROM per_coin) AS total_count, page.*
       FROM (SELECT 1) one
       LEFT JOIN LATERAL (
         SELECT coin, trim_scale(total_value)::text AS total_value, trim_scale(risk_value)::text AS risk_value,
                CASE WHEN total_value = 0 THEN '0' ELSE trim_scale(round(risk_value * 100 / total_value, 8))::text END AS percent_risk
         FROM per_coin
         ORDER BY per_coin.total_value DESC, coin COLLATE "C"
         OFFSET $2 LIMIT $3
       ) page ON TRUE`,
      [query.cohortId, query.offset, query.limit],
    );
    const totalCount = rows[0]?.total_count ?? 0;
    const items = rows
      .filter((r) => r.coin !== null)
      .map((r) => ({ coin: r.coin!, totalValue: r.total_value!, riskValue: r.risk_value!, percentRisk: r.percent_risk! }));
    return { totalCount, items };
  }
}
