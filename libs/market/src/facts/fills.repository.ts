import { Injectable } from '@nestjs/common';
import { BulkInsert, copyBool, CopyFirstInsert, copyNullable, copyNullableText, copyText, type SqlRunner } from '#database';
import type { FillRow } from './fact-rows.js';

// Also the column order of the COPY lines below.
const INSERT = new BulkInsert<FillRow>(
  'fills',
  `address text, coin text, px numeric, sz numeric, side text, time timestamptz, start_position numeric, dir text, closed_pnl numeric, hash text,
   oid bigint, crossed boolean, fee numeric, fee_token text, tid bigint, cloid text, twap_id bigint, builder text, builder_fee numeric,
   liquidated_user text, liquidation_mark_px numeric, liquidation_method text, is_liquidated_side boolean, block_number bigint, block_time timestamptz`,
  (r) => [
    r.address,
    r.coin,
    r.px,
    r.sz,
    r.side,
    r.time,
    r.startPosition,
    r.dir,
    r.closedPnl,
    r.hash,
    r.oid,
    r.crossed,
    r.fee,
    r.feeToken,
    r.tid,
    r.cloid,
    r.twapId,
    r.builder,
    r.builderFee,
    r.liquidatedUser,
    r.liquidationMarkPx,
    r.liquidationMethod,
    r.isLiquidatedSide,
    r.blockNumber,
    r.blockTime,
  ],
  '(tid, address, time) DO NOTHING',
);

// Why the primary key (tid, address, time) is enough to store a (tid, address) once: Postgres wants the
// partition key in every unique key, but a fill's time is part of the trade and never changes, so every
// delivery of a fill (a replayed block, another source, the websocket) carries the same time, lands in
// the same partition and meets the stored row on that key, in the COPY (which then fails over to the
// INSERT) as in the INSERT (whose DO NOTHING also skips a repeat within the statement). Probing every
// partition by (tid, address) for a different time, as a NOT EXISTS did, cost an index lookup per row
// and partition for a case the exchange does not produce.

/** One row in COPY text, columns in INSERT's order. */
function copyLine(r: FillRow): string {
  return (
    `${r.address}\t${copyText(r.coin)}\t${r.px}\t${r.sz}\t${r.side}\t${r.time}\t${r.startPosition}\t${copyText(r.dir)}\t${r.closedPnl}\t` +
    `${r.hash}\t${r.oid}\t${copyBool(r.crossed)}\t${r.fee}\t${copyNullableText(r.feeToken)}\t${r.tid}\t${copyNullableText(r.cloid)}\t` +
    `${copyNullable(r.twapId)}\t${copyNullable(r.builder)}\t${copyNullable(r.builderFee)}\t${copyNullable(r.liquidatedUser)}\t` +
    `${copyNullable(r.liquidationMarkPx)}\t${copyNullableText(r.liquidationMethod)}\t${copyBool(r.isLiquidatedSide)}\t${r.blockNumber}\t${r.blockTime}\n`
  );
}

// The whole batch in one COPY; a batch holding a stored fill goes in by INSERT ... ON CONFLICT.
const STORE = new CopyFirstInsert(INSERT, copyLine);

/** UTC month start of an ISO time: the partition a fill goes to. */
const monthOf = (iso: string): string => `${iso.slice(0, 7)}-01T00:00:00.000Z`;

@Injectable()
export class FillsRepository {
  /** Creates the monthly partitions the rows fall in that do not exist yet (one statement). */
  async ensurePartitions(q: SqlRunner, rows: FillRow[]): Promise<void> {
    const months = [...new Set(rows.map((r) => monthOf(r.time)))];
    if (months.length === 0) return;
    await q.query(`SELECT ensure_fills_partition(m) FROM unnest($1::timestamptz[]) AS m`, [months]);
  }

  /**
   * Inserts the fills not stored yet and returns how many were new: by COPY when none of them is stored
   * and none is there twice (a live feed), else, back at the savepoint, by INSERT ... ON CONFLICT DO
   * NOTHING (a replay, the second leg of a rare self-trade, or another writer that stored some of them
   * first). Must run inside a transaction.
   */
  insert(q: SqlRunner, rows: FillRow[]): Promise<number> {
    return STORE.run(q, rows);
  }
}
