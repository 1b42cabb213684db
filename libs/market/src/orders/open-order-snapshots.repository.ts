import { Injectable } from '@nestjs/common';
import type { OrderSnapshot } from './open-order.types.js';
import { SNAPSHOT_RETENTION_MS } from './snapshot-grid.js';
import { isoTime, type SqlRunner } from '#database';

const VERSION_COLUMNS = [
  'coin',
  'side',
  'limit_px',
  'sz',
  'orig_sz',
  'timestamp',
  'trigger_condition',
  'is_trigger',
  'trigger_px',
  'children',
  'is_position_tpsl',
  'reduce_only',
  'order_type',
  'tif',
  'cloid',
  'builder',
  'builder_fee',
  'height',
];
const ORDER_COLUMNS = ['address', 'oid', ...VERSION_COLUMNS].join(', ');
const of = (alias: string) => VERSION_COLUMNS.map((c) => `${alias}.${c}`).join(', ');

// The versions of the changed orders that the book no longer holds as they are: closed at the snapshot.
const CLOSE_CHANGED = `
  WITH closed AS (
    UPDATE open_order_intervals i SET valid_to = $1
    FROM open_orders b
    WHERE b.pending_for = $1 AND i.address = b.address AND i.oid = b.oid AND i.valid_to IS NULL
      AND (b.gone OR ROW(${of('i')}) IS DISTINCT FROM ROW(${of('b')}))
    RETURNING 1
  )
  SELECT count(*)::int AS n FROM closed`;

// Run after CLOSE_CHANGED: a changed order still in the book without an open version gets a new one.
const OPEN_CHANGED = `
  WITH opened AS (
    INSERT INTO open_order_intervals (${ORDER_COLUMNS}, valid_from)
    SELECT b.address, b.oid, ${of('b')}, $1 FROM open_orders b
    WHERE b.pending_for = $1 AND NOT b.gone
      AND NOT EXISTS (SELECT 1 FROM open_order_intervals i WHERE i.address = b.address AND i.oid = b.oid AND i.valid_to IS NULL)
    RETURNING 1
  )
  SELECT count(*)::int AS n FROM opened`;

const LATEST = `SELECT snapshot_ts, height, order_count FROM open_order_snapshots ORDER BY snapshot_ts DESC LIMIT 1`;

interface SnapshotRow {
  snapshot_ts: Date;
  height: string;
  order_count: number;
}

const toSnapshot = (r: SnapshotRow): OrderSnapshot => ({
  snapshotTs: r.snapshot_ts.toISOString(),
  height: Number(r.height),
  orderCount: r.order_count,
});

/**
 * The 5-minute snapshots as validity intervals: taking one turns the book's changes since the last one
 * into closed and new versions. Reading them is the read side's (OrderSnapshotsQueries).
 */
@Injectable()
export class OpenOrderSnapshotsRepository {
  /** The newest snapshot taken, inside the writer's transaction: where the next one continues from. */
  async latestSnapshot(q: SqlRunner): Promise<OrderSnapshot | null> {
    const rows: SnapshotRow[] = await q.query(LATEST);
    return rows.length ? toSnapshot(rows[0]!) : null;
  }

  /**
   * Takes the snapshot at `atMs` of the book as it stands (the caller has applied every block before
   * `atMs` and none after). Only orders changed since the last snapshot are looked at. The caller drops
   * what fell out of retention once its snapshots are taken (`dropExpired`).
   */
  async take(q: SqlRunner, atMs: number, height: number): Promise<void> {
    const at = isoTime(atMs);
    const [{ n: closed }] = await q.query(CLOSE_CHANGED, [at]);
    const [{ n: opened }] = await q.query(OPEN_CHANGED, [at]);
    // One round trip for both: the removed orders leave the book as the snapshot row is written.
    await q.query(
      `WITH removed AS (DELETE FROM open_orders WHERE pending_for = $1 AND gone)
       INSERT INTO open_order_snapshots (snapshot_ts, height, order_count)
       SELECT $1, $2, coalesce((SELECT order_count FROM open_order_snapshots ORDER BY snapshot_ts DESC LIMIT 1), 0) + $3`,
      [at, height, opened - closed],
    );
  }

  /**
   * Snapshots at every boundary from `fromMs` to `toMs` when nothing changed since the latest one (a
   * stretch of exchange time without order events): copies of it, written at once.
   */
  async repeatLatest(q: SqlRunner, fromMs: number, toMs: number): Promise<void> {
    await q.query(
      `INSERT INTO open_order_snapshots (snapshot_ts, height, order_count)
       SELECT g, l.height, l.order_count FROM (${LATEST}) l, generate_series($1::timestamptz, $2::timestamptz, interval '5 minutes') g`,
      [isoTime(fromMs), isoTime(toMs)],
    );
  }

  /**
   * Retention behind the newest snapshot: snapshots older than 30 days, and the versions no kept
   * snapshot shows (closed at or before the oldest kept one). Indexed by valid_to, so each call deletes
   * only what expired since the previous one. Called once after a batch's snapshots: the cutoff only
   * moves forward, and no snapshot taken reads what it deletes.
   */
  async dropExpired(q: SqlRunner, newestMs: number): Promise<void> {
    const cutoff = isoTime(newestMs - SNAPSHOT_RETENTION_MS);
    await q.query(
      `WITH versions AS (DELETE FROM open_order_intervals WHERE valid_to <= $1)
       DELETE FROM open_order_snapshots WHERE snapshot_ts < $1`,
      [cutoff],
    );
  }
}
