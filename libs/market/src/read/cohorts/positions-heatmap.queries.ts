import { Injectable } from '@nestjs/common';
import { jsonDecimal, jsonRows, type JsonText, type SqlRunner, ReadsTables } from '#database';
import { COHORTS } from '../../cohorts/cohorts.js';
import type { CohortPositionWindow } from './cohorts.types.js';

/** Every wallet is in exactly one size cohort, so a coin's totals are the sums over those: each position once. */
const SIZE_COHORT_IDS = COHORTS.filter((s) => s.category === 'size').map((s) => s.id);
/** The cohort ids of a coin's `segments` entries, in id order. */
const COHORT_IDS = COHORTS.map((s) => s.id).sort((a, b) => a - b);

@Injectable()
@ReadsTables('cohort_position_snapshots', 'state_updates')
export class PositionsHeatmapQueries {
  /**
   * The heatmap of the latest state update as the contract's JSON array (HeatmapCoin objects), coins by
   * total value descending, then coin (byte order), each with 16 cells in cohort id order, zeros (and a
   * null bias) for a cohort without positions in the coin. Read from cohort_position_snapshots, which
   * that update wrote in its own transaction from the same positions and wallets tables: one row per
   * coin, cohort (each open position in its wallet's size cohort and its pnl cohort) and window
   * (positions with open_time at or after the update's time minus 24h, 7d or 30d, or all), so this is
   * exactly the open positions as they stand now, without summing every position at each request.
   * `bias` is the long share of the value rounded to 8 places. No state update yet: an empty array.
   */
  async latest(q: SqlRunner, window: CohortPositionWindow): Promise<JsonText> {
    const rows = `
      WITH cells AS (
        SELECT s.coin, s.cohort_id, s.position_count, s.position_count_long, s.total_position_value, s.total_position_value_long
        FROM cohort_position_snapshots s
        WHERE s.timeframe = $1 AND s.created_at = (SELECT max(state_time) FROM state_updates)
      ), coins AS (
        SELECT coin, sum(position_count)::int AS count, sum(position_count_long)::int AS count_long,
               sum(total_position_value) AS value, sum(total_position_value_long) AS long_value
        FROM cells WHERE cohort_id = ANY($2::smallint[])
        GROUP BY coin
      )
      SELECT c.*, (
        SELECT json_agg(r ORDER BY r."segmentId")
        FROM (
          SELECT cohort.id AS "segmentId", c.coin,
                 ${jsonDecimal('coalesce(x.total_position_value, 0)')} AS "totalValue",
                 ${jsonDecimal('coalesce(x.total_position_value_long, 0)')} AS "totalLongValue",
                 ${jsonDecimal('coalesce(x.total_position_value - x.total_position_value_long, 0)')} AS "totalShortValue",
                 coalesce(x.position_count, 0) AS count, coalesce(x.position_count_long, 0) AS "countLong",
                 coalesce(x.position_count - x.position_count_long, 0) AS "countShort",
                 CASE WHEN x.total_position_value <> 0 THEN ${jsonDecimal('round(x.total_position_value_long / x.total_position_value, 8)')} END AS bias
          FROM unnest($3::smallint[]) AS cohort(id)
          LEFT JOIN cells x ON x.coin = c.coin AND x.cohort_id = cohort.id
        ) r
      ) AS segments
      FROM coins c
      ORDER BY c.value DESC, c.coin COLLATE "C"`;
    return jsonRows(q, rows, [window, SIZE_COHORT_IDS, COHORT_IDS], {
      coin: 'coin',
      totalValue: jsonDecimal('value'),
      totalLongValue: jsonDecimal('long_value'),
      totalShortValue: jsonDecimal('value - long_value'),
      count: 'count',
      countLong: 'count_long',
      countShort: 'count - count_long',
      segments: 'segments',
    });
  }
}
