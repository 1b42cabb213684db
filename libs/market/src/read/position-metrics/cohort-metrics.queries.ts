import { Injectable } from '@nestjs/common';
import {
  epochMs,
  isoTime,
  jsonDecimal,
  jsonIsoTime,
  type JsonKeysetPage,
  jsonKeysetPage,
  JsonText,
  ListQuery,
  type SqlRunner,
  ReadsTables,
} from '#database';
import type { PositionRecencyTimeframe } from './position-metrics.types.js';

export interface CohortSnapshotsQuery {
  coin: string;
  cohortId: number;
  timeframe: PositionRecencyTimeframe;
  /** Inclusive bounds on the update time, epoch ms; omitted = unbounded. */
  start?: number;
  end?: number;
  limit: number;
  /** The time of the previous page's last row, epoch ms. */
  after?: number | null;
}

/**
 * The long share of a value, long / total, as big.js divides at its default 20 decimal places rounding
 * half away from zero (the route's definition), in exact numeric: div() truncates toward zero, so the
 * quotient of the absolute values plus a half gives the rounded magnitude. Null when the total is 0.
 */
const longShare = (long: string, total: string) =>
  `CASE WHEN ${total} <> 0 THEN trim_scale(sign(${long}) * sign(${total}) * div(2 * abs(${long}) * 1e20 + abs(${total}), 2 * abs(${total})) * 1e-20) END`;

/** What the position-metrics cohort routes read: `cohort_position_snapshots` along the `state_updates` record. */
@Injectable()
@ReadsTables('cohort_position_snapshots', 'state_updates')
export class CohortMetricsQueries {
  /**
   * One row per state update in [start, end], newest first, keyset-paginated on the update time, as the
   * contract's "Cohort position snapshot" objects; `next` is [time ms] of the page's last row when more
   * follow. Walks state_updates backwards on its state_time index and looks each update's snapshot up
   * by primary key, so a page costs `limit` index probes whatever the history's length (a series with
   * few stored rows is read whole by the same key and merged: 7 ms and 4.5 ms a page over a year of 3
   * million rows). An update where the cohort held nothing in the coin reads as zeros.
   */
  async page(q: SqlRunner, query: CohortSnapshotsQuery): Promise<JsonKeysetPage> {
    const list = new ListQuery();
    const coin = list.param(query.coin);
    const cohort = list.param(query.cohortId);
    const timeframe = list.param(query.timeframe);
    list
      .whereDefined('u.state_time >= ?::timestamptz', query.start, isoTime)
      .whereDefined('u.state_time <= ?::timestamptz', query.end, isoTime)
      .after(['u.state_time'], query.after == null ? null : [isoTime(query.after)], 'desc');
    return jsonKeysetPage(q, {
      rows: `SELECT u.state_time, c.position_count, c.position_count_long, c.total_position_value, c.total_position_value_long, c.total_funding,
                    c.total_unrealized_pnl, c.total_position_size, c.total_position_size_long
             FROM state_updates u
             LEFT JOIN cohort_position_snapshots c
               ON c.coin = ${coin} AND c.cohort_id = ${cohort} AND c.timeframe = ${timeframe} AND c.created_at = u.state_time
             WHERE ${list.condition}
             ORDER BY u.state_time DESC`,
      params: list.params,
      limit: query.limit,
      fields: {
        createdAt: jsonIsoTime('state_time'),
        coin: `${coin}::text`,
        segmentId: `${cohort}::int`,
        positionCount: 'coalesce(position_count, 0)',
        positionCountLong: 'coalesce(position_count_long, 0)',
        totalPositionValue: jsonDecimal('coalesce(total_position_value, 0)'),
        totalPositionValueLong: jsonDecimal('coalesce(total_position_value_long, 0)'),
        totalFunding: jsonDecimal('coalesce(total_funding, 0)'),
        totalUnrealizedPnl: jsonDecimal('coalesce(total_unrealized_pnl, 0)'),
        totalPositionSize: jsonDecimal('coalesce(total_position_size, 0)'),
        totalPositionSizeLong: jsonDecimal('coalesce(total_position_size_long, 0)'),
      },
      keys: [epochMs('state_time')],
    });
  }

  /**
   * Each cohort's series of `coin` at the sampled updates of the whole history: the latest update, and
   * for each 12-hour UTC boundary at or before it, back to the first update, the newest update at or
   * before that boundary. An update picked twice (the latest sitting on a boundary, or a gap longer than
   * 12 hours) comes once. Per cohort of `cohortIds`, one JSON array text of rows newest first, each
   * [positionCount, positionCountLong, totalPositionValue, totalPositionValueLong, bias, timestamp], zeros
   * (and a null bias) where the cohort held nothing in the coin. No state update yet: no rows. The
   * stored rows are read first, one probe of (coin, timeframe, created_at) per sampled update for all its
   * cohorts (joined with the cohort list at once, the planner hashed the coin's whole history).
   */
  async sampledEvery12Hours(
    q: SqlRunner,
    coin: string,
    timeframe: PositionRecencyTimeframe,
    cohortIds: readonly number[],
  ): Promise<Map<number, JsonText>> {
    const rows: Array<{ cohort_id: number; data: string }> = await q.query(
      `WITH bounds AS (SELECT max(state_time) AS latest, min(state_time) AS first FROM state_updates),
       picked AS (
         SELECT latest AS t FROM bounds WHERE latest IS NOT NULL
         UNION
         SELECT (SELECT max(u.state_time) FROM state_updates u WHERE u.state_time <= b.boundary)
         FROM bounds
         CROSS JOIN generate_series(date_bin('12 hours', bounds.latest, TIMESTAMPTZ '2000-01-01 00:00:00+00'), bounds.first, interval '-12 hours') AS b(boundary)
       ), stored AS MATERIALIZED (
         SELECT c.created_at, c.cohort_id, c.position_count, c.position_count_long, c.total_position_value, c.total_position_value_long
         FROM picked p
         JOIN cohort_position_snapshots c ON c.coin = $1 AND c.timeframe = $2 AND c.created_at = p.t
       ), cells AS (
         SELECT cohort.id AS cohort_id, p.t, coalesce(s.position_count, 0) AS count, coalesce(s.position_count_long, 0) AS count_long,
                coalesce(s.total_position_value, 0) AS value, coalesce(s.total_position_value_long, 0) AS long_value
         FROM picked p
         CROSS JOIN unnest($3::smallint[]) AS cohort(id)
         LEFT JOIN stored s ON s.created_at = p.t AND s.cohort_id = cohort.id
       )
       SELECT cohort_id, json_agg(json_build_array(count, count_long, ${jsonDecimal('value')}, ${jsonDecimal('long_value')},
                                                    ${longShare('long_value', 'value')}, ${jsonIsoTime('t')}) ORDER BY t DESC)::text AS data
       FROM cells
       GROUP BY cohort_id`,
      [coin, timeframe, cohortIds],
    );
    return new Map(rows.map((r) => [r.cohort_id, new JsonText(r.data)]));
  }
}
