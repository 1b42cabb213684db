import { Injectable } from '@nestjs/common';
import { isoTime, jsonDecimal, jsonIsoTime, jsonRows, type JsonText, type SqlRunner, ReadsTables } from '#database';

export interface OpenPositionsHistoryQuery {
  /** The stored spelling of the market. */
  coin: string;
  /** The size cohorts' ids: every wallet is in exactly one, so their sum is every open position. */
  sizeCohortIds: readonly number[];
  /** Inclusive bounds on the update time, epoch ms; omitted = unbounded. */
  start?: number;
  end?: number;
  limit: number;
}

// The 2-hour boundary strictly before t: t's own 2-hour bin start, or the previous one when t is on a boundary.
const PREVIOUS_BOUNDARY = (t: string) =>
  `CASE WHEN date_bin('2 hours', ${t}, TIMESTAMPTZ 'epoch') = ${t} THEN ${t} - interval '2 hours' ELSE date_bin('2 hours', ${t}, TIMESTAMPTZ 'epoch') END`;

/** What the per-coin position-count series reads: the state updates and their cohort snapshots. */
@Injectable()
@ReadsTables('cohort_position_snapshots', 'state_updates')
export class OpenPositionsHistoryQueries {
  /**
   * Newest first: the newest update in [start, end], then, for each 2-hour UTC boundary going back, the
   * newest update at or before it. The update after row u is the newest at or before the boundary
   * strictly before u, so each step is one index probe of `state_updates` and a gap of several hours
   * gives one row, not a repeat. Each row sums the coin's 'all' snapshots of the size cohorts at
   * that update; an update where nobody held the coin has no snapshot rows and reads as zeros. The rows
   * come as one JSON array of OpenPositionsHistoryRow arrays.
   */
  async series(q: SqlRunner, query: OpenPositionsHistoryQuery): Promise<JsonText> {
    const start = query.start === undefined ? null : isoTime(query.start);
    const end = query.end === undefined ? null : isoTime(query.end);
    const rows = `WITH RECURSIVE picked (state_time, n) AS (
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
       SELECT p.state_time, s.*
       FROM picked p
       -- One probe of (coin, timeframe, created_at) per update reads its 16 cohorts' rows, the size cohorts kept: a
       -- primary-key probe per size cohort was 8 times the probes.
       LEFT JOIN LATERAL (
         SELECT coalesce(sum(c.position_count), 0) AS position_count, coalesce(sum(c.position_count_long), 0) AS position_count_long,
                coalesce(sum(c.total_position_value), 0) AS total_position_value, coalesce(sum(c.total_position_value_long), 0) AS total_position_value_long
         FROM cohort_position_snapshots c
         WHERE c.coin = $4 AND c.timeframe = 'all' AND c.created_at = p.state_time AND c.cohort_id = ANY($5::smallint[])
       ) s ON TRUE
       ORDER BY p.state_time DESC`;
    // [coin, timestamp, positionCount, positionCountLong, totalPositionValue, totalPositionValueLong]
    return jsonRows(
      q,
      rows,
      [start, end, query.limit, query.coin, query.sizeCohortIds],
      [
        '$4::text',
        jsonIsoTime('state_time'),
        'position_count',
        'position_count_long',
        jsonDecimal('total_position_value'),
        jsonDecimal('total_position_value_long'),
      ],
    );
  }
}
