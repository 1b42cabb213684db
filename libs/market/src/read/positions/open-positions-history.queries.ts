import { Injectable } from '@nestjs/common';
import { epochMs, isoTime, type SqlRunner } from '#database';

export interface OpenPositionsHistoryQuery {
  /** The stored spelling of the market. */
  coin: string;
  /** The size cohorts' ids: every wallet is in exactly one, so their sum is every open position. */
  sizeSegmentIds: readonly number[];
  /** Inclusive bounds on the update time, epoch ms; omitted = unbounded. */
  start?: number;
  end?: number;
  limit: number;
}

/** One state update's open positions of the coin: counts as numbers, values as exact decimal text. */
export interface OpenPositionsHistoryDbRow {
  state_time: string;
  position_count: string;
  position_count_long: string;
  total_position_value: string;
  total_position_value_long: string;
}

// The 2-hour boundary strictly before t: t's own 2-hour bin start, or the previous one when t is on a boundary.
const PREVIOUS_BOUNDARY = (t: string) =>
  `CASE WHEN date_bin('2 hours', ${t}, TIMESTAMPTZ 'epoch') = ${t} THEN ${t} - interval '2 hours' ELSE date_bin('2 hours', ${t}, TIMESTAMPTZ 'epoch') END`;

/** What the per-coin position-count series reads: the state updates and their cohort snapshots. */
@Injectable()
export class OpenPositionsHistoryQueries {
  /**
   * Newest first: the newest update in [start, end], then, for each 2-hour UTC boundary going back, the
   * newest update at or before it. The update after row u is the newest at or before the boundary
   * strictly before u, so each step is one index probe of `state_updates` and a gap of several hours
   * gives one row, not a repeat. Each row sums the coin's 'all' snapshots of the size cohorts at
   * that update; an update where nobody held the coin has no snapshot rows and reads as zeros.
   */
  async series(q: SqlRunner, query: OpenPositionsHistoryQuery): Promise<OpenPositionsHistoryDbRow[]> {
    const start = query.start === undefined ? null : isoTime(query.start);
    const end = query.end === undefined ? null : isoTime(query.end);
    return q.query(
      `WITH RECURSIVE picked (state_time, n) AS (
         (SELECT u.state_time, 1 FROM state_updates u
          WHERE ($1::timestamptz IS NULL OR u.state_time >= $1::timestamptz) AND ($2::timestamptz IS NULL OR u.state_time <= $2::timestamptz)
          ORDER BY u.state_time DESC LIMIT 1)
         UNION ALL
         SELECT next.state_time, p.n + 1
         FROM picked p
         CROSS JOIN LATERAL (
           SELECT u.state_time FROM state_updates u
           WHERE u.state_time <= ${PREVIOUS_BOUNDARY('p.state_time')} AND ($1::timestamptz IS NULL OR u.state_time >= $1::timestamptz)
           ORDER BY u.state_time DESC LIMIT 1) next
         WHERE p.n < $3
       )
       SELECT ${epochMs('p.state_time')} AS state_time,
              coalesce(sum(s.position_count), 0)::text AS position_count,
              coalesce(sum(s.position_count_long), 0)::text AS position_count_long,
              trim_scale(coalesce(sum(s.total_position_value), 0))::text AS total_position_value,
              trim_scale(coalesce(sum(s.total_position_value_long), 0))::text AS total_position_value_long
       FROM picked p
       -- One primary-key probe per (update, size cohort): with segment_id = ANY(...) the planner took the
       -- created_at index and filtered every coin's and timeframe's rows of each update.
       CROSS JOIN unnest($5::smallint[]) AS seg(id)
       LEFT JOIN cohort_position_snapshots s
         ON s.coin = $4 AND s.segment_id = seg.id AND s.timeframe = 'all' AND s.created_at = p.state_time
       GROUP BY p.state_time
       ORDER BY p.state_time DESC`,
      [start, end, query.limit, query.coin, query.sizeSegmentIds],
    );
  }
}
