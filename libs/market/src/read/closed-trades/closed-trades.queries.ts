import { Injectable } from '@nestjs/common';
import { epochMs, isoTime, keysetPage, ListQuery, type SqlRunner, ReadsTables } from '#database';
import type { ListedClosedTrade, TradeOutcome } from '../../closed-trades/closed-trade.types.js';
import { NET_RESULT_SQL, OUTCOME_SQL } from './closed-trade-outcome.sql.js';

/** Where a page of one wallet's trades ended: the last trade's close time and hash (newest first). */
export interface ClosedTradeCursor {
  closeTime: number;
  hash: string;
}

export interface ClosedTradesQuery {
  address: string;
  /** Inclusive bounds on closeTime, epoch ms; omitted = unbounded. */
  startTime?: number;
  endTime?: number;
  limit: number;
  after?: ClosedTradeCursor | null;
}

export interface ClosedTradesPage {
  trades: ListedClosedTrade[];
  /** Null on the last page. */
  next: ClosedTradeCursor | null;
}

// Numerics come back as stored, which for sums may carry trailing zeros: trim_scale gives the same
// text big.js would.
const SELECT = `
  SELECT hash, id, address, coin, side, trim_scale(avg_entry)::text AS avg_entry, trim_scale(avg_exit)::text AS avg_exit,
         duration, ${epochMs('open_time')} AS open_time, ${epochMs('close_time')} AS close_time, partial, trim_scale(total_size)::text AS total_size,
         trim_scale(total_usd)::text AS total_usd, trim_scale(realized_pnl_usd)::text AS realized_pnl_usd, count_fills,
         trim_scale(fee)::text AS fee, trim_scale(fee_usd)::text AS fee_usd, trim_scale(funding_usd)::text AS funding_usd,
         trim_scale(carried_size)::text AS carried_size, trim_scale(exit_size)::text AS exit_size, trim_scale(exit_usd)::text AS exit_usd,
         trim_scale(${NET_RESULT_SQL})::text AS net_pnl_usd, ${OUTCOME_SQL} AS outcome
  FROM closed_trades`;

interface TradeRecord {
  hash: string;
  id: string;
  address: string;
  coin: string;
  side: 'long' | 'short';
  avg_entry: string | null;
  avg_exit: string | null;
  duration: string;
  open_time: string;
  close_time: string;
  partial: boolean;
  total_size: string;
  total_usd: string;
  realized_pnl_usd: string;
  count_fills: number;
  fee: string;
  fee_usd: string;
  funding_usd: string;
  carried_size: string;
  exit_size: string;
  exit_usd: string;
  net_pnl_usd: string;
  outcome: TradeOutcome;
}

function toTrade(r: TradeRecord): ListedClosedTrade {
  return {
    address: r.address,
    hash: r.hash,
    id: r.id,
    side: r.side,
    coin: r.coin,
    avgEntry: r.avg_entry,
    avgExit: r.avg_exit,
    duration: Number(r.duration),
    openTime: Number(r.open_time),
    closeTime: Number(r.close_time),
    partial: r.partial,
    totalSize: r.total_size,
    totalUsd: r.total_usd,
    realizedPnlUsd: r.realized_pnl_usd,
    countFills: r.count_fills,
    fee: r.fee,
    feeUsd: r.fee_usd,
    fundingUsd: r.funding_usd,
    carriedSize: r.carried_size,
    exitSize: r.exit_size,
    exitUsd: r.exit_usd,
    netPnlUsd: r.net_pnl_usd,
    outcome: r.outcome,
  };
}

/** What the closed-trades routes read of the `closed_trades` table the fill projector fills. */
@Injectable()
@ReadsTables('closed_trades')
export class ClosedTradesQueries {
  /** One wallet's trades closed in [startTime, endTime], newest first, keyset-paginated. */
  async listByAddress(q: SqlRunner, query: ClosedTradesQuery): Promise<ClosedTradesPage> {
    const list = new ListQuery()
      .where('address = ?', query.address.toLowerCase())
      .whereDefined('close_time >= ?::timestamptz', query.startTime, isoTime)
      .whereDefined('close_time <= ?::timestamptz', query.endTime, isoTime)
      .after(['close_time', 'hash'], query.after && [isoTime(query.after.closeTime), query.after.hash], 'desc');
    const rows: TradeRecord[] = await q.query(
      `${SELECT} WHERE ${list.condition} ORDER BY close_time DESC, hash DESC LIMIT ${list.param(query.limit + 1)}`,
      list.params,
    );
    const { items, next } = keysetPage(rows, query.limit, (last) => ({ closeTime: Number(last.close_time), hash: last.hash }));
    return { trades: items.map(toTrade), next };
  }
}
