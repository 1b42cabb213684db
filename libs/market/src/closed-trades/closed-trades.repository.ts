import { Injectable } from '@nestjs/common';
import type { SqlRunner } from '../facts/exchange-facts.types.js';
import { isoTime } from '../facts/fact-rows.js';
import type { ClosedTrade } from './closed-trade.types.js';

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
  trades: ClosedTrade[];
  /** Null on the last page. */
  next: ClosedTradeCursor | null;
}

/** A funding payment stored after the fills around it were projected. */
export interface LateFundingPayment {
  address: string;
  coin: string;
  time: number;
  usdc: string;
}

const COLUMNS: Array<[column: string, type: string, value: (t: ClosedTrade) => unknown]> = [
  ['hash', 'text', (t) => t.hash],
  ['id', 'text', (t) => t.id],
  ['address', 'text', (t) => t.address],
  ['coin', 'text', (t) => t.coin],
  ['side', 'text', (t) => t.side],
  ['avg_entry', 'numeric', (t) => t.avgEntry],
  ['avg_exit', 'numeric', (t) => t.avgExit],
  ['duration', 'bigint', (t) => t.duration],
  ['open_time', 'timestamptz', (t) => isoTime(t.openTime)],
  ['close_time', 'timestamptz', (t) => isoTime(t.closeTime)],
  ['partial', 'boolean', (t) => t.partial],
  ['total_size', 'numeric', (t) => t.totalSize],
  ['total_usd', 'numeric', (t) => t.totalUsd],
  ['realized_pnl_usd', 'numeric', (t) => t.realizedPnlUsd],
  ['count_fills', 'integer', (t) => t.countFills],
  ['fee', 'numeric', (t) => t.fee],
  ['fee_usd', 'numeric', (t) => t.feeUsd],
  ['funding_usd', 'numeric', (t) => t.fundingUsd],
  ['carried_size', 'numeric', (t) => t.carriedSize],
  ['exit_size', 'numeric', (t) => t.exitSize],
  ['exit_usd', 'numeric', (t) => t.exitUsd],
];

const NAMES = COLUMNS.map(([c]) => c).join(', ');

const INSERT = `
  WITH inserted AS (
    INSERT INTO closed_trades (${NAMES})
    SELECT * FROM unnest(${COLUMNS.map(([, type], i) => `$${i + 1}::${type}[]`).join(', ')})
    ON CONFLICT (hash) DO NOTHING
    RETURNING 1
  )
  SELECT count(*)::int AS n FROM inserted`;

// Numerics come back as stored, which for sums may carry trailing zeros: trim_scale gives the same
// text big.js would. Epoch ms via numeric extract, exact.
const ms = (column: string): string => `(extract(epoch FROM ${column}) * 1000)::bigint AS ${column}`;
const SELECT = `
  SELECT hash, id, address, coin, side, trim_scale(avg_entry)::text AS avg_entry, trim_scale(avg_exit)::text AS avg_exit,
         duration, ${ms('open_time')}, ${ms('close_time')}, partial, trim_scale(total_size)::text AS total_size,
         trim_scale(total_usd)::text AS total_usd, trim_scale(realized_pnl_usd)::text AS realized_pnl_usd, count_fills,
         trim_scale(fee)::text AS fee, trim_scale(fee_usd)::text AS fee_usd, trim_scale(funding_usd)::text AS funding_usd,
         trim_scale(carried_size)::text AS carried_size, trim_scale(exit_size)::text AS exit_size, trim_scale(exit_usd)::text AS exit_usd
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
}

function toTrade(r: TradeRecord): ClosedTrade {
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
  };
}

@Injectable()
export class ClosedTradesRepository {
  /** Inserts the trades not stored yet (by hash), in one statement; returns how many were new. */
  async insert(q: SqlRunner, trades: ClosedTrade[]): Promise<number> {
    if (trades.length === 0) return 0;
    const result: Array<{ n: number }> = await q.query(INSERT, COLUMNS.map(([, , value]) => trades.map(value)));
    return result[0]!.n;
  }

  /**
   * Adds funding paid while a stored trade was open (openTime < time <= closeTime, the builder's rule
   * for a payment fed in order) to that trade; returns how many trades changed.
   */
  async addLateFunding(q: SqlRunner, payments: LateFundingPayment[]): Promise<number> {
    if (payments.length === 0) return 0;
    const result: Array<{ n: number }> = await q.query(
      `WITH p AS (
         SELECT * FROM unnest($1::text[], $2::text[], $3::timestamptz[], $4::numeric[]) AS p(address, coin, time, usdc)
       ), hit AS (
         SELECT t.hash, sum(p.usdc) AS usdc
         FROM p JOIN closed_trades t ON t.address = p.address AND t.coin = p.coin AND t.open_time < p.time AND t.close_time >= p.time
         GROUP BY t.hash
       ), updated AS (
         UPDATE closed_trades c SET funding_usd = c.funding_usd + hit.usdc FROM hit WHERE c.hash = hit.hash RETURNING 1
       )
       SELECT count(*)::int AS n FROM updated`,
      [payments.map((p) => p.address), payments.map((p) => p.coin), payments.map((p) => isoTime(p.time)), payments.map((p) => p.usdc)],
    );
    return result[0]!.n;
  }

  /** One wallet's trades closed in [startTime, endTime], newest first, keyset-paginated. */
  async listByAddress(q: SqlRunner, query: ClosedTradesQuery): Promise<ClosedTradesPage> {
    const params: unknown[] = [query.address.toLowerCase(), query.limit + 1];
    const where = ['address = $1'];
    if (query.startTime !== undefined) where.push(`close_time >= $${params.push(isoTime(query.startTime))}::timestamptz`);
    if (query.endTime !== undefined) where.push(`close_time <= $${params.push(isoTime(query.endTime))}::timestamptz`);
    if (query.after) {
      const time = params.push(isoTime(query.after.closeTime));
      const hash = params.push(query.after.hash);
      where.push(`(close_time, hash) < ($${time}::timestamptz, $${hash}::text)`);
    }
    const rows: TradeRecord[] = await q.query(
      `${SELECT} WHERE ${where.join(' AND ')} ORDER BY close_time DESC, hash DESC LIMIT $2`,
      params,
    );
    const trades = rows.slice(0, query.limit).map(toTrade);
    const last = trades[trades.length - 1];
    return { trades, next: rows.length > query.limit && last ? { closeTime: last.closeTime, hash: last.hash } : null };
  }
}
