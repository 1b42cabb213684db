import { Injectable } from '@nestjs/common';
import {
  epochMs,
  isoTime,
  jsonDecimal,
  jsonIsoTime,
  type JsonKeysetPage,
  jsonKeysetPage,
  ListQuery,
  type SqlRunner,
  ReadsTables,
} from '#database';

/** The contract's "Market-wide snapshot", in its field order. */
const FIELDS = {
  id: 'id',
  createdAt: jsonIsoTime('created_at'),
  count: 'count',
  countLong: 'count_long',
  countShort: 'count_short',
  openInterest: jsonDecimal('open_interest'),
  openInterestLong: jsonDecimal('open_interest_long'),
  openInterestShort: jsonDecimal('open_interest_short'),
  perpEquity: jsonDecimal('perp_equity'),
  countInProfit: 'count_in_profit',
};

export interface MarketSnapshotsQuery {
  /** Inclusive bounds on the snapshot time, epoch ms; omitted = unbounded. */
  start?: number;
  end?: number;
  limit: number;
  /** The time of the previous page's last row, epoch ms. */
  after?: number | null;
}

/** What the market-wide position-metrics route reads: `market_snapshots`, one row per state update. */
@Injectable()
@ReadsTables('market_snapshots')
export class MarketMetricsQueries {
  /**
   * Snapshots in [start, end], newest first, keyset-paginated on their (unique, indexed) time, as the
   * contract's JSON objects; `next` is [time ms] of the page's last snapshot when more follow.
   */
  async page(q: SqlRunner, query: MarketSnapshotsQuery): Promise<JsonKeysetPage> {
    const list = new ListQuery()
      .whereDefined('m.created_at >= ?::timestamptz', query.start, isoTime)
      .whereDefined('m.created_at <= ?::timestamptz', query.end, isoTime)
      .after(['m.created_at'], query.after == null ? null : [isoTime(query.after)], 'desc');
    return jsonKeysetPage(q, {
      rows: `SELECT m.* FROM market_snapshots m WHERE ${list.condition} ORDER BY m.created_at DESC`,
      params: list.params,
      limit: query.limit,
      fields: FIELDS,
      keys: [epochMs('created_at')],
    });
  }
}
