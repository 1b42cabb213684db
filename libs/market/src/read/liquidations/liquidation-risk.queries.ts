import { Injectable } from '@nestjs/common';
import { type SqlRunner } from '#database';
import type { SegmentCategory } from '../../segments/segments.js';
import type { LiquidationRiskRecords } from './liquidations.types.js';

/** The wallets column that holds a wallet's cohort of each category (written at every state update). */
const COHORT_COLUMN: Readonly<Record<SegmentCategory, string>> = { size: 'size_segment_id', pnl: 'pnl_segment_id' };

export interface LiquidationRiskQuery {
  category: SegmentCategory;
  segmentId: number;
  /** A position at or past this liquidation progress (exact decimal text) counts as at risk. */
  riskProgress: string;
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

/** What the liquidation-risk route reads: the open positions of a cohort's wallets, summed per coin. */
@Injectable()
export class LiquidationRiskQueries {
  /**
   * One page of the coins a cohort holds open positions in, by total value descending and coin ascending
   * (byte order), with the number of such coins. One row comes back even when the page is empty, so the
   * count is always read; sums and the percentage are exact numeric, the percentage rounded to 8 places.
   */
  async byCoin(q: SqlRunner, query: LiquidationRiskQuery): Promise<LiquidationRiskRecords> {
    const rows: RiskRow[] = await q.query(
      `WITH per_coin AS (
         SELECT p.coin,
                sum(p.value) AS total_value,
                coalesce(sum(p.value) FILTER (WHERE p.liquidation_progress >= $2::numeric), 0) AS risk_value
         FROM positions p
         JOIN wallets w ON w.address = p.address
         WHERE p.close_time IS NULL AND w.${COHORT_COLUMN[query.category]} = $1
         GROUP BY p.coin
       )
       SELECT (SELECT count(*)::int FROM per_coin) AS total_count, page.*
       FROM (SELECT 1) one
       LEFT JOIN LATERAL (
         SELECT coin, trim_scale(total_value)::text AS total_value, trim_scale(risk_value)::text AS risk_value,
                CASE WHEN total_value = 0 THEN '0' ELSE trim_scale(round(risk_value * 100 / total_value, 8))::text END AS percent_risk
         FROM per_coin
         ORDER BY per_coin.total_value DESC, coin COLLATE "C"
         OFFSET $3 LIMIT $4
       ) page ON TRUE`,
      [query.segmentId, query.riskProgress, query.offset, query.limit],
    );
    const totalCount = rows[0]?.total_count ?? 0;
    const items = rows
      .filter((r) => r.coin !== null)
      .map((r) => ({ coin: r.coin!, totalValue: r.total_value!, riskValue: r.risk_value!, percentRisk: r.percent_risk! }));
    return { totalCount, items };
  }
}
