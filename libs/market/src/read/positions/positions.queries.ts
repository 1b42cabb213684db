import { Injectable } from '@nestjs/common';
import { epochMs, isoTime, keysetPage, ListQuery, type SqlRunner } from '#database';
import type { SegmentCategory } from '../../segments/segments.js';

/** Where a page ended: the last position's open time (epoch ms) and id (newest first). */
export interface PositionCursor {
  openTime: number;
  id: number;
}

export interface PositionsQuery {
  /** The window, epoch ms, inclusive: positions open at any moment of [start, end]. */
  start: number;
  end: number;
  /** The stored spelling of the market. */
  coin?: string;
  /** Lower-case wallet addresses. */
  addresses?: readonly string[];
  /** true: close_time is null; false: it is not. */
  open?: boolean;
  /** Wallets in this cohort now, by the cohort's category. */
  segment?: { id: number; category: SegmentCategory };
  limit: number;
  after?: PositionCursor | null;
}

/** A positions row as stored: decimals as exact text, times as epoch ms text. */
export interface PositionRow {
  id: string;
  address: string;
  coin: string;
  dex: string;
  side: 'long' | 'short';
  size: string;
  value: string;
  entry_price: string;
  unrealized_pnl: string;
  funding: string;
  liquidation_price: string | null;
  liquidation_progress: string | null;
  leverage_type: string;
  leverage: string;
  margin_used: string;
  open_time: string;
  close_time: string | null;
  created_at: string;
  updated_at: string;
}

export interface PositionRowsPage {
  rows: PositionRow[];
  /** Null on the last page. */
  next: PositionCursor | null;
}

// trim_scale gives the digits as written (no trailing zeros), the text big.js would give.
const SELECT = `
  SELECT p.id::text AS id, p.address, p.coin, p.dex, p.side, trim_scale(p.size)::text AS size, trim_scale(p.value)::text AS value,
         trim_scale(p.entry_price)::text AS entry_price, trim_scale(p.unrealized_pnl)::text AS unrealized_pnl, trim_scale(p.funding)::text AS funding,
         trim_scale(p.liquidation_price)::text AS liquidation_price, trim_scale(p.liquidation_progress)::text AS liquidation_progress,
         p.leverage_type, trim_scale(p.leverage)::text AS leverage, trim_scale(p.margin_used)::text AS margin_used,
         ${epochMs('p.open_time')} AS open_time, ${epochMs('p.close_time')} AS close_time,
         ${epochMs('p.created_at')} AS created_at, ${epochMs('p.updated_at')} AS updated_at
  FROM positions p`;

/** The wallets column holding a category's cohort: fixed names, never caller text. */
const SEGMENT_COLUMN: Record<SegmentCategory, string> = { size: 'size_segment_id', pnl: 'pnl_segment_id' };

/** What the historical-positions route reads of the `positions` table the state writer keeps. */
@Injectable()
export class PositionsQueries {
  /**
   * One page of the positions open at some moment of [start, end] (opened at or before `end`, and
   * open or closed at or after `start`), newest open time first, id as the tiebreak. Each filter is
   * served by an index: (address, open_time), (coin, open_time, id), else (open_time, id), walked
   * backwards from `end` (or the cursor).
   */
  async page(q: SqlRunner, query: PositionsQuery): Promise<PositionRowsPage> {
    const list = new ListQuery()
      .where('p.open_time <= ?::timestamptz', isoTime(query.end))
      .where('p.close_time IS NULL OR p.close_time >= ?::timestamptz', isoTime(query.start))
      .whereDefined('p.coin = ?', query.coin)
      .whereDefined('p.address = ANY(?::text[])', query.addresses);
    if (query.open !== undefined) list.where(query.open ? 'p.close_time IS NULL' : 'p.close_time IS NOT NULL');
    if (query.segment) {
      list.where(`p.address IN (SELECT w.address FROM wallets w WHERE w.${SEGMENT_COLUMN[query.segment.category]} = ?::smallint)`, query.segment.id);
    }
    list.after(['p.open_time', 'p.id'], query.after && [isoTime(query.after.openTime), query.after.id], 'desc');
    const rows: PositionRow[] = await q.query(
      `${SELECT} WHERE ${list.condition} ORDER BY p.open_time DESC, p.id DESC LIMIT ${list.param(query.limit + 1)}`,
      list.params,
    );
    const { items, next } = keysetPage(rows, query.limit, (last) => ({ openTime: Number(last.open_time), id: Number(last.id) }));
    return { rows: items, next };
  }
}
