import { Injectable } from '@nestjs/common';
import { epochMs, isoTime, keysetPage, ListQuery, type SqlRunner } from '#database';

/** One market-wide snapshot as stored: counts as integers, sums as exact decimal text, the time as epoch ms. */
export interface MarketSnapshotRecord {
  id: number;
  created_at: string;
  count: number;
  count_long: number;
  count_short: number;
  open_interest: string;
  open_interest_long: string;
  open_interest_short: string;
  perp_equity: string;
  count_in_profit: number;
}

export interface MarketSnapshotsQuery {
  /** Inclusive bounds on the snapshot time, epoch ms; omitted = unbounded. */
  start?: number;
  end?: number;
  limit: number;
  /** The time of the previous page's last row, epoch ms. */
  after?: number | null;
}

export interface MarketSnapshotsPage {
  rows: MarketSnapshotRecord[];
  /** Null on the last page. */
  next: number | null;
}

/** What the market-wide position-metrics route reads: `market_snapshots`, one row per state update. */
@Injectable()
export class MarketMetricsQueries {
  /** Snapshots in [start, end], newest first, keyset-paginated on their (unique, indexed) time. */
  async page(q: SqlRunner, query: MarketSnapshotsQuery): Promise<MarketSnapshotsPage> {
    const list = new ListQuery()
      .whereDefined('m.created_at >= ?::timestamptz', query.start, isoTime)
      .whereDefined('m.created_at <= ?::timestamptz', query.end, isoTime)
      .after(['m.created_at'], query.after == null ? null : [isoTime(query.after)], 'desc');
    // Qualified: a bare created_at in ORDER BY would name the epoch-ms output column and sort instead of walking the index.
    const rows: MarketSnapshotRecord[] = await q.query(
      `SELECT m.id, ${epochMs('m.created_at')} AS created_at, count, count_long, count_short,
              trim_scale(open_interest)::text AS open_interest, trim_scale(open_interest_long)::text AS open_interest_long,
              trim_scale(open_interest_short)::text AS open_interest_short, trim_scale(perp_equity)::text AS perp_equity, count_in_profit
       FROM market_snapshots m
       WHERE ${list.condition}
       ORDER BY m.created_at DESC
       LIMIT ${list.param(query.limit + 1)}`,
      list.params,
    );
    const { items, next } = keysetPage(rows, query.limit, (last) => Number(last.created_at));
    return { rows: items, next };
  }
}
