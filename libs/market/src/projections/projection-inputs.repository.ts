import { Injectable } from '@nestjs/common';
import type { TradeFill } from '../closed-trades/closed-trade.builder.js';
import type { FundingPayment } from '../closed-trades/closed-trade.types.js';
import { type SqlRunner } from '#database';

export interface ProjectedFill extends TradeFill {
  /** Lower-cased. */
  address: string;
}

export interface ProjectedFunding extends FundingPayment {
  /** Lower-cased. */
  address: string;
  blockNumber: number;
}

/** The highest block stored of the fills and misc-events streams of one source (null: none yet). */
export interface FeedFrontier {
  fills: number | null;
  misc: number | null;
  /** The fills stream is checkpointed without block numbers (the public-API feed): no window is known. */
  blockless: boolean;
}

/**
 * The projection's order of fills, here and in `fills`' SQL: time, then tid, then address (a stored fill's
 * key, so no two tie). Addresses are lower-case hex, which sorts alike in every collation.
 */
export function compareProjectedFills(a: ProjectedFill, b: ProjectedFill): number {
  return a.time - b.time || (a.tid ?? 0) - (b.tid ?? 0) || (a.address < b.address ? -1 : a.address > b.address ? 1 : 0);
}

const ms = (column: string): string => `(extract(epoch FROM ${column}) * 1000)::bigint`;

/** Reads the stored facts a projection window covers: block_number in (after, upTo]. */
@Injectable()
export class ProjectionInputsRepository {
  async frontier(q: SqlRunner, source: string): Promise<FeedFrontier> {
    const rows: Array<{ stream: string; last: string | null }> = await q.query(
      `SELECT stream, position->>'lastBlock' AS last FROM feed_checkpoints
       WHERE source = $1 AND stream IN ('node_fills_by_block', 'misc_events_by_block')`,
      [source],
    );
    const last = (stream: string): number | null => {
      const value = rows.find((r) => r.stream === stream)?.last;
      return value === undefined || value === null ? null : Number(value);
    };
    const fills = last('node_fills_by_block');
    return { fills, misc: last('misc_events_by_block'), blockless: fills === null && rows.some((r) => r.stream === 'node_fills_by_block') };
  }

  /**
   * Where a window starting after `after` ends so that it holds about `maxFills` fills: the block of the
   * maxFills-th fill (whole blocks only, so it may hold a few more), or `upTo` when fewer are waiting.
   */
  async windowEnd(q: SqlRunner, after: number, upTo: number, maxFills: number): Promise<number> {
    const rows: Array<{ block_number: string }> = await q.query(
      `SELECT block_number FROM fills WHERE block_number > $1 AND block_number <= $2 ORDER BY block_number OFFSET $3 LIMIT 1`,
      [after, upTo, maxFills - 1],
    );
    return rows[0] ? Number(rows[0].block_number) : upTo;
  }

  /** The window's fills in (time, tid) order: the order the closed-trade builder needs per (address, coin). */
  async fills(q: SqlRunner, after: number, upTo: number): Promise<ProjectedFill[]> {
    const rows: Array<{
      address: string;
      coin: string;
      px: string;
      sz: string;
      side: 'A' | 'B';
      time: string;
      start_position: string;
      closed_pnl: string;
      fee: string;
      tid: string;
      hash: string;
      oid: string;
    }> = await q.query(
      `SELECT lower(address) AS address, coin, px::text AS px, sz::text AS sz, side, ${ms('time')} AS time,
              start_position::text AS start_position, closed_pnl::text AS closed_pnl, fee::text AS fee, tid, hash, oid
       FROM fills WHERE block_number > $1 AND block_number <= $2
       ORDER BY time, tid, address`,
      [after, upTo],
    );
    return rows.map((r) => ({
      address: r.address,
      coin: r.coin,
      px: r.px,
      sz: r.sz,
      side: r.side,
      time: Number(r.time),
      startPosition: r.start_position,
      closedPnl: r.closed_pnl,
      fee: r.fee,
      tid: Number(r.tid),
      hash: r.hash,
      oid: Number(r.oid),
    }));
  }

  /** The window's funding payments by time. */
  async funding(q: SqlRunner, after: number, upTo: number): Promise<ProjectedFunding[]> {
    const rows: Array<{ address: string; coin: string; usdc: string; time: string; block_number: string }> = await q.query(
      `SELECT lower(address) AS address, coin, usdc::text AS usdc, ${ms('time')} AS time, block_number
       FROM funding_payments WHERE block_number > $1 AND block_number <= $2
       ORDER BY time, address, coin`,
      [after, upTo],
    );
    return rows.map((r) => ({ address: r.address, coin: r.coin, usdc: r.usdc, time: Number(r.time), blockNumber: Number(r.block_number) }));
  }
}
