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
import type { CohortCategory } from '../../cohorts/cohorts.js';

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
  cohort?: { id: number; category: CohortCategory };
  limit: number;
  after?: PositionCursor | null;
}

/**
 * The contract's position record, in its field order. `closeTime` is the real close time whatever the
 * window asked for; null while the position is open.
 */
const FIELDS = {
  id: 'id',
  address: 'address',
  coin: 'coin',
  dex: 'dex',
  side: 'side',
  size: jsonDecimal('size'),
  value: jsonDecimal('value'),
  entryPrice: jsonDecimal('entry_price'),
  unrealizedPnl: jsonDecimal('unrealized_pnl'),
  funding: jsonDecimal('funding'),
  liquidationPrice: jsonDecimal('liquidation_price'),
  liquidationProgress: jsonDecimal('liquidation_progress'),
  leverageType: 'leverage_type',
  leverage: jsonDecimal('leverage'),
  marginUsed: jsonDecimal('margin_used'),
  openTime: jsonIsoTime('open_time'),
  closeTime: jsonIsoTime('close_time'),
  createdAt: jsonIsoTime('created_at'),
  updatedAt: jsonIsoTime('updated_at'),
};

/** The wallets column holding a category's cohort: fixed names, never caller text. */
const COHORT_COLUMN: Record<CohortCategory, string> = { size: 'size_cohort_id', pnl: 'pnl_cohort_id' };

/** What the historical-positions route reads of the `positions` table the state writer keeps. */
@Injectable()
@ReadsTables('positions', 'wallets')
export class PositionsQueries {
  /**
   * One page of the positions open at some moment of [start, end] (opened at or before `end`, and
   * open or closed at or after `start`), newest open time first, id as the tiebreak. Each filter is
   * served by an index: (address, open_time), (coin, open_time, id), else (open_time, id), walked
   * backwards from `end` (or the cursor). The page comes as the contract's JSON objects; `next` is
   * [openTime ms, id] of its last position when more follow.
   */
  async page(q: SqlRunner, query: PositionsQuery): Promise<JsonKeysetPage> {
    const list = new ListQuery()
      .where('p.open_time <= ?::timestamptz', isoTime(query.end))
      .where('p.close_time IS NULL OR p.close_time >= ?::timestamptz', isoTime(query.start))
      .whereDefined('p.coin = ?', query.coin)
      .whereDefined('p.address = ANY(?::text[])', query.addresses);
    if (query.open !== undefined) list.where(query.open ? 'p.close_time IS NULL' : 'p.close_time IS NOT NULL');
    if (query.cohort) {
      list.where(
        `p.address IN (SELECT w.address FROM wallets w WHERE w.${COHORT_COLUMN[query.cohort.category]} = ?::smallint)`,
        query.cohort.id,
      );
    }
    list.after(['p.open_time', 'p.id'], query.after && [isoTime(query.after.openTime), query.after.id], 'desc');
    return jsonKeysetPage(q, {
      rows: `SELECT p.* FROM positions p WHERE ${list.condition} ORDER BY p.open_time DESC, p.id DESC`,
      params: list.params,
      limit: query.limit,
      fields: FIELDS,
      // PositionCursor's: the open time in epoch ms, the id.
      keys: [epochMs('open_time'), 'id'],
    });
  }
}
