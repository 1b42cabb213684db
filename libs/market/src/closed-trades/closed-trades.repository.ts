import { Injectable } from '@nestjs/common';
import { BulkInsert, isoTime, type SqlRunner } from '#database';
import type { ClosedTrade } from './closed-trade.types.js';

/** A funding payment stored after the fills around it were projected. */
export interface LateFundingPayment {
  address: string;
  coin: string;
  time: number;
  usdc: string;
}

const INSERT = new BulkInsert<ClosedTrade>(
  'closed_trades',
  `hash text, id text, address text, coin text, side text, avg_entry numeric, avg_exit numeric, duration bigint, open_time timestamptz,
   close_time timestamptz, partial boolean, total_size numeric, total_usd numeric, realized_pnl_usd numeric, count_fills integer, fee numeric,
   fee_usd numeric, funding_usd numeric, carried_size numeric, exit_size numeric, exit_usd numeric`,
  (t) => [
    t.hash,
    t.id,
    t.address,
    t.coin,
    t.side,
    t.avgEntry,
    t.avgExit,
    t.duration,
    isoTime(t.openTime),
    isoTime(t.closeTime),
    t.partial,
    t.totalSize,
    t.totalUsd,
    t.realizedPnlUsd,
    t.countFills,
    t.fee,
    t.feeUsd,
    t.fundingUsd,
    t.carriedSize,
    t.exitSize,
    t.exitUsd,
  ],
  '(hash) DO NOTHING',
);

@Injectable()
export class ClosedTradesRepository {
  /** Inserts the trades not stored yet (by hash), in one statement; returns how many were new. */
  insert(q: SqlRunner, trades: ClosedTrade[]): Promise<number> {
    return INSERT.run(q, trades);
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
}
