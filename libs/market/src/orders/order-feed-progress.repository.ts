import { Injectable } from '@nestjs/common';
import type { BlockMark } from './open-order.types.js';
import { type SqlRunner } from '#database';

/** Where the book stands for one source. */
export interface OrderFeedProgress {
  /** Last block seen of the order-status stream. */
  statuses: BlockMark | null;
  /** Last block seen of the fills stream. */
  fills: BlockMark | null;
  /** Last block applied to the book. */
  applied: BlockMark | null;
}

interface ProgressRow {
  statuses_block: string | null;
  statuses_time: Date | null;
  fills_block: string | null;
  fills_time: Date | null;
  applied_block: string | null;
  applied_time: Date | null;
}

const mark = (block: string | null, time: Date | null): BlockMark | null =>
  block === null || time === null ? null : { block: Number(block), timeMs: time.getTime() };
const iso = (m: BlockMark | null) => (m === null ? null : new Date(m.timeMs).toISOString());

@Injectable()
export class OrderFeedProgressRepository {
  /**
   * The source's progress, locked until the transaction ends (two writers of a source apply a block once),
   * and the version of its row (the transaction that wrote it last): what BookedOrderKeys checks its copy of
   * the book against.
   */
  async lock(q: SqlRunner, source: string): Promise<{ progress: OrderFeedProgress | null; rowVersion: string | null }> {
    const rows: Array<ProgressRow & { row_version: string }> = await q.query(
      `SELECT *, xmin::text AS row_version FROM open_order_feeds WHERE source = $1 FOR UPDATE`,
      [source],
    );
    if (rows.length === 0) return { progress: null, rowVersion: null };
    const r = rows[0]!;
    return {
      progress: {
        statuses: mark(r.statuses_block, r.statuses_time),
        fills: mark(r.fills_block, r.fills_time),
        applied: mark(r.applied_block, r.applied_time),
      },
      rowVersion: r.row_version,
    };
  }

  /** Returns the row's new version. */
  async save(q: SqlRunner, source: string, p: OrderFeedProgress): Promise<string> {
    const rows: Array<{ row_version: string }> = await q.query(
      `INSERT INTO open_order_feeds (source, statuses_block, statuses_time, fills_block, fills_time, applied_block, applied_time)
       VALUES ($1, $2, $3, $4, $5, $6, $7)
       ON CONFLICT (source) DO UPDATE SET
         statuses_block = EXCLUDED.statuses_block, statuses_time = EXCLUDED.statuses_time,
         fills_block = EXCLUDED.fills_block, fills_time = EXCLUDED.fills_time,
         applied_block = EXCLUDED.applied_block, applied_time = EXCLUDED.applied_time
       RETURNING xmin::text AS row_version`,
      [source, p.statuses?.block ?? null, iso(p.statuses), p.fills?.block ?? null, iso(p.fills), p.applied?.block ?? null, iso(p.applied)],
    );
    return rows[0]!.row_version;
  }
}
