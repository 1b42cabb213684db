import { Injectable } from '@nestjs/common';
import { epochMs, isoTime, keysetPage, ListQuery, type SqlRunner } from '#database';
import type { Side } from '#exchange';
import type { LiquidationFillCursor, LiquidationFillFilters, LiquidationFillRecord, LiquidationFillsPage } from './liquidations.types.js';

export interface LiquidationFillsQuery extends LiquidationFillFilters {
  limit: number;
  after?: LiquidationFillCursor | null;
}

// Decimals and bigints as their exact text: the service turns them into JSON numbers at the response edge.
const SELECT = `
  SELECT address, coin, px::text AS px, sz::text AS sz, side, ${epochMs('time')} AS time_ms, start_position::text AS start_position, dir,
         closed_pnl::text AS closed_pnl, hash, oid::text AS oid, crossed, fee::text AS fee, fee_token, tid::text AS tid, builder,
         builder_fee::text AS builder_fee, liquidated_user, liquidation_mark_px::text AS liquidation_mark_px, liquidation_method
  FROM fills`;

interface FillRow {
  address: string;
  coin: string;
  px: string;
  sz: string;
  side: Side;
  time_ms: string;
  start_position: string;
  dir: string;
  closed_pnl: string;
  hash: string;
  oid: string;
  crossed: boolean;
  fee: string;
  fee_token: string | null;
  tid: string;
  builder: string | null;
  builder_fee: string | null;
  liquidated_user: string;
  liquidation_mark_px: string;
  liquidation_method: string;
}

function toRecord(r: FillRow): LiquidationFillRecord {
  return {
    address: r.address,
    coin: r.coin,
    px: r.px,
    sz: r.sz,
    side: r.side,
    timeMs: Number(r.time_ms),
    startPosition: r.start_position,
    dir: r.dir,
    closedPnl: r.closed_pnl,
    hash: r.hash,
    oid: r.oid,
    crossed: r.crossed,
    fee: r.fee,
    feeToken: r.fee_token,
    tid: r.tid,
    builder: r.builder,
    builderFee: r.builder_fee,
    liquidatedUser: r.liquidated_user,
    liquidationMarkPx: r.liquidation_mark_px,
    liquidationMethod: r.liquidation_method,
  };
}

/**
 * What the liquidation-fills route reads of `fills`: the fills hl-node marked with a `liquidation`
 * object (both sides of a liquidation trade carry it). Every filter is served by a partial index over
 * those fills only: time alone by fills_liquidation_time_idx, coin and wallet by the two of migration
 * 1764200000000 (without them a rare coin or a wallet walked every liquidation ever stored).
 */
@Injectable()
export class LiquidationFillsQueries {
  /** One page newest first, by (time, tid, address) descending, the keyset of the cursor. */
  async list(q: SqlRunner, query: LiquidationFillsQuery): Promise<LiquidationFillsPage> {
    // Every feed stores addresses lowercase: the column is compared as it is, so its index and statistics serve.
    const list = new ListQuery()
      .where('liquidated_user IS NOT NULL')
      .whereDefined('coin = ?', query.coin)
      .whereDefined('address = ?', query.address, (address) => address.toLowerCase())
      .whereDefined('side = ?', query.side)
      .whereDefined('time >= ?::timestamptz', query.startMs, isoTime)
      .whereDefined('time <= ?::timestamptz', query.endMs, isoTime)
      .after(['time', 'tid', 'address'], query.after && [isoTime(query.after.timeMs), query.after.tid, query.after.address], 'desc');
    // ORDER BY names the table's columns: a bare `tid` would be the text output column, sorting 10 before 9.
    const rows: FillRow[] = await q.query(
      `${SELECT} WHERE ${list.condition} ORDER BY fills.time DESC, fills.tid DESC, fills.address DESC LIMIT ${list.param(query.limit + 1)}`,
      list.params,
    );
    const { items, next } = keysetPage(rows, query.limit, (last) => ({ timeMs: Number(last.time_ms), tid: last.tid, address: last.address }));
    return { fills: items.map(toRecord), next };
  }
}
