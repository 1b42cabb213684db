import { Injectable } from '@nestjs/common';
import type { SqlRunner } from '#database';
import { SEGMENTS } from '../../segments/segments.js';
import type { CohortPositionWindow } from './cohorts.types.js';

/** One cohort's open positions in one coin, next to the coin's totals; decimals are exact strings. */
export interface HeatmapCellRow {
  coin: string;
  coinCount: number;
  coinCountLong: number;
  coinValue: string;
  coinLongValue: string;
  coinShortValue: string;
  segmentId: number;
  count: number;
  countLong: number;
  value: string;
  longValue: string;
  shortValue: string;
  /** longValue / value rounded to 8 decimals; null when value is 0. */
  bias: string | null;
}

interface CellRecord {
  coin: string;
  coin_count: number;
  coin_count_long: number;
  coin_value: string;
  coin_long_value: string;
  coin_short_value: string;
  segment_id: number;
  count: number;
  count_long: number;
  value: string;
  long_value: string;
  short_value: string;
  bias: string | null;
}

/** Every wallet is in exactly one size cohort, so a coin's totals are the sums over those: each position once. */
const SIZE_SEGMENT_IDS = SEGMENTS.filter((s) => s.category === 'size').map((s) => s.id);

@Injectable()
export class PositionsHeatmapQueries {
  /**
   * The cells of the latest state update, ordered by the coin's total value (descending), coin (byte
   * order), cohort id. They are read from cohort_position_snapshots, which that update wrote in its own
   * transaction from the same positions and wallets tables: one row per coin, cohort (each open position
   * in its wallet's size cohort and its pnl cohort) and window (positions with open_time at or after the
   * update's time minus 24h, 7d or 30d, or all), so this is exactly the open positions as they stand now,
   * without summing every position at each request. A cohort with no position in a coin has no row.
   * No state update yet: no rows.
   */
  async latestCells(q: SqlRunner, window: CohortPositionWindow): Promise<HeatmapCellRow[]> {
    const rows: CellRecord[] = await q.query(
      `WITH cells AS (
         SELECT s.coin, s.segment_id, s.position_count, s.position_count_long, s.total_position_value, s.total_position_value_long
         FROM cohort_position_snapshots s
         WHERE s.timeframe = $1 AND s.created_at = (SELECT max(state_time) FROM state_updates)
       ), coins AS (
         SELECT coin, sum(position_count) AS count, sum(position_count_long) AS count_long,
                sum(total_position_value) AS value, sum(total_position_value_long) AS long_value
         FROM cells WHERE segment_id = ANY($2::smallint[])
         GROUP BY coin
       )
       SELECT c.coin, c.count::int AS coin_count, c.count_long::int AS coin_count_long,
              trim_scale(c.value)::text AS coin_value, trim_scale(c.long_value)::text AS coin_long_value,
              trim_scale(c.value - c.long_value)::text AS coin_short_value,
              x.segment_id, x.position_count AS count, x.position_count_long AS count_long,
              trim_scale(x.total_position_value)::text AS value, trim_scale(x.total_position_value_long)::text AS long_value,
              trim_scale(x.total_position_value - x.total_position_value_long)::text AS short_value,
              CASE WHEN x.total_position_value <> 0 THEN trim_scale(round(x.total_position_value_long / x.total_position_value, 8))::text END AS bias
       FROM coins c JOIN cells x ON x.coin = c.coin
       ORDER BY c.value DESC, c.coin COLLATE "C", x.segment_id`,
      [window, SIZE_SEGMENT_IDS],
    );
    return rows.map((r) => ({
      coin: r.coin,
      coinCount: r.coin_count,
      coinCountLong: r.coin_count_long,
      coinValue: r.coin_value,
      coinLongValue: r.coin_long_value,
      coinShortValue: r.coin_short_value,
      segmentId: r.segment_id,
      count: r.count,
      countLong: r.count_long,
      value: r.value,
      longValue: r.long_value,
      shortValue: r.short_value,
      bias: r.bias,
    }));
  }
}
