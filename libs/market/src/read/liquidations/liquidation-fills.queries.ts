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
import type { LiquidationFillCursor, LiquidationFillFilters } from './liquidations.types.js';

export interface LiquidationFillsQuery extends LiquidationFillFilters {
  limit: number;
  after?: LiquidationFillCursor | null;
}

/**
 * The contract's "Liquidation fill", in its field order. `fullCoinName` is the coin itself: the stored
 * data holds no longer market name, and a market of another venue is already written `<prefix>:<SYMBOL>`
 * in full. Liquidations happen only on perpetual markets, hence `fillType` 'perp'. No builder: '' and 0;
 * no fee token: ''.
 */
const FIELDS = {
  oid: 'oid',
  address: 'address',
  coin: 'coin',
  fullCoinName: 'coin',
  fillType: `'perp'`,
  px: jsonDecimal('px'),
  sz: jsonDecimal('sz'),
  side: 'side',
  time: jsonIsoTime('time'),
  startPosition: jsonDecimal('start_position'),
  dir: 'dir',
  closedPnl: jsonDecimal('closed_pnl'),
  hash: 'hash',
  crossed: 'crossed',
  fee: jsonDecimal('fee'),
  builderFee: jsonDecimal('coalesce(builder_fee, 0)'),
  tid: 'tid',
  feeToken: `coalesce(fee_token, '')`,
  builder: `coalesce(builder, '')`,
  liquidatedUser: 'liquidated_user',
  liquidationMarkPx: jsonDecimal('liquidation_mark_px'),
  liquidationMethod: 'liquidation_method',
};

/** The cursor's keys of a fill, LiquidationFillCursor's: epoch ms, the tid as text (a bigint), the address. */
const KEYS = [epochMs('time'), 'tid::text', 'address'];

/**
 * What the liquidation-fills route reads of `fills`: the fills hl-node marked with a `liquidation`
 * object (both sides of a liquidation trade carry it). Every filter is served by a partial index over
 * those fills only: time alone by fills_liquidation_time_idx, coin and wallet by the two of migration
 * 1764200000000 (without them a rare coin or a wallet walked every liquidation ever stored).
 */
@Injectable()
@ReadsTables('fills')
export class LiquidationFillsQueries {
  /**
   * One page newest first, by (time, tid, address) descending, the keyset of the cursor, as the
   * contract's JSON objects; `next` is [timeMs, tid, address] of the last fill when more follow.
   */
  async list(q: SqlRunner, query: LiquidationFillsQuery): Promise<JsonKeysetPage> {
    // Every feed stores addresses lowercase: the column is compared as it is, so its index and statistics serve.
    const list = new ListQuery()
      .where('liquidated_user IS NOT NULL')
      .whereDefined('coin = ?', query.coin)
      .whereDefined('address = ?', query.address, (address) => address.toLowerCase())
      .whereDefined('side = ?', query.side)
      .whereDefined('time >= ?::timestamptz', query.startMs, isoTime)
      .whereDefined('time <= ?::timestamptz', query.endMs, isoTime)
      .after(['time', 'tid', 'address'], query.after && [isoTime(query.after.timeMs), query.after.tid, query.after.address], 'desc');
    return jsonKeysetPage(q, {
      rows: `SELECT * FROM fills WHERE ${list.condition} ORDER BY time DESC, tid DESC, address DESC`,
      params: list.params,
      limit: query.limit,
      fields: FIELDS,
      keys: KEYS,
    });
  }
}
