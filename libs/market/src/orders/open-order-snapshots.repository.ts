import { Injectable } from '@nestjs/common';
import type { SqlRunner } from '../facts/exchange-facts.types.js';
import type { OpenOrderCursor, OpenOrderFilters, OpenOrderRecord, OpenOrdersPage, OrderSnapshot } from './open-order.types.js';
import { SNAPSHOT_RETENTION_MS } from './snapshot-grid.js';

const VERSION_COLUMNS = [
  'coin', 'side', 'limit_px', 'sz', 'orig_sz', 'timestamp', 'trigger_condition', 'is_trigger', 'trigger_px', 'children',
  'is_position_tpsl', 'reduce_only', 'order_type', 'tif', 'cloid', 'builder', 'builder_fee', 'height',
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

interface IntervalRow {
  address: string;
  oid: string;
  coin: string;
  side: 'A' | 'B';
  limit_px: string;
  sz: string;
  orig_sz: string;
  timestamp: Date;
  trigger_condition: string;
  is_trigger: boolean;
  trigger_px: string;
  children: unknown[];
  is_position_tpsl: boolean;
  reduce_only: boolean;
  order_type: string;
  tif: string | null;
  cloid: string | null;
  builder: string | null;
  builder_fee: number | null;
  height: string;
}

const iso = (at: string | number | Date): string => new Date(at).toISOString();

const toSnapshot = (r: SnapshotRow): OrderSnapshot => ({ snapshotTs: r.snapshot_ts.toISOString(), height: Number(r.height), orderCount: r.order_count });

function toRecord(r: IntervalRow, snapshotTs: string): OpenOrderRecord {
  return {
    height: Number(r.height),
    address: r.address,
    oid: Number(r.oid),
    coin: r.coin,
    side: r.side,
    limitPx: r.limit_px,
    sz: r.sz,
    origSz: r.orig_sz,
    timestamp: r.timestamp.toISOString(),
    triggerCondition: r.trigger_condition,
    isTrigger: r.is_trigger,
    triggerPx: r.trigger_px,
    children: r.children,
    isPositionTpsl: r.is_position_tpsl,
    reduceOnly: r.reduce_only,
    orderType: r.order_type,
    tif: r.tif ?? '',
    cloid: r.cloid ?? '',
    status: 'open',
    builder: r.builder ?? '',
    builderFee: r.builder_fee ?? 0,
    // 'triggered' takes an order out of the book, so a trigger order in a snapshot is still waiting.
    untriggered: r.is_trigger,
    snapshotTs,
  };
}

/**
 * The 5-minute snapshots as validity intervals: taking one turns the book's changes since the last one
 * into closed and new versions; reading one selects the versions valid at its time.
 */
@Injectable()
export class OpenOrderSnapshotsRepository {
  async latestSnapshot(q: SqlRunner): Promise<OrderSnapshot | null> {
    const rows: SnapshotRow[] = await q.query(LATEST);
    return rows.length ? toSnapshot(rows[0]!) : null;
  }

  /**
   * Takes the snapshot at `atMs` of the book as it stands (the caller has applied every block before
   * `atMs` and none after), then drops what fell out of retention. Only orders changed since the last
   * snapshot are looked at.
   */
  async take(q: SqlRunner, atMs: number, height: number): Promise<void> {
    const at = iso(atMs);
    const [{ n: closed }] = await q.query(CLOSE_CHANGED, [at]);
    const [{ n: opened }] = await q.query(OPEN_CHANGED, [at]);
    await q.query(`DELETE FROM open_orders WHERE pending_for = $1 AND gone`, [at]);
    await q.query(
      `INSERT INTO open_order_snapshots (snapshot_ts, height, order_count)
       SELECT $1, $2, coalesce((SELECT order_count FROM open_order_snapshots ORDER BY snapshot_ts DESC LIMIT 1), 0) + $3`,
      [at, height, opened - closed],
    );
    await this.dropExpired(q, atMs);
  }

  /**
   * Snapshots at every boundary from `fromMs` to `toMs` when nothing changed since the latest one (a
   * stretch of exchange time without order events): copies of it, written at once.
   */
  async repeatLatest(q: SqlRunner, fromMs: number, toMs: number): Promise<void> {
    await q.query(
      `INSERT INTO open_order_snapshots (snapshot_ts, height, order_count)
       SELECT g, l.height, l.order_count FROM (${LATEST}) l, generate_series($1::timestamptz, $2::timestamptz, interval '5 minutes') g`,
      [iso(fromMs), iso(toMs)],
    );
    await this.dropExpired(q, toMs);
  }

  /**
   * Retention behind the newest snapshot: snapshots older than 30 days, and the versions no kept
   * snapshot shows (closed at or before the oldest kept one). Indexed by valid_to, so each snapshot
   * deletes only what expired since the previous one.
   */
  private async dropExpired(q: SqlRunner, newestMs: number): Promise<void> {
    const cutoff = iso(newestMs - SNAPSHOT_RETENTION_MS);
    await q.query(`DELETE FROM open_order_intervals WHERE valid_to <= $1`, [cutoff]);
    await q.query(`DELETE FROM open_order_snapshots WHERE snapshot_ts < $1`, [cutoff]);
  }

  /**
   * One page of the orders open at snapshot `snapshotTs`, by (address, oid), or null when no snapshot was
   * taken then (off the grid, not reached yet, or expired). Filters combine with AND.
   */
  async openAt(q: SqlRunner, snapshotTs: string | number, filters: OpenOrderFilters, limit: number, cursor: OpenOrderCursor | null): Promise<OpenOrdersPage | null> {
    if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`limit must be a positive integer, got ${limit}`);
    const at = iso(snapshotTs);
    const snapshots: SnapshotRow[] = await q.query(`SELECT snapshot_ts, height, order_count FROM open_order_snapshots WHERE snapshot_ts = $1`, [at]);
    if (snapshots.length === 0) return null;

    const params: unknown[] = [at, limit + 1];
    const p = (value: unknown) => `$${params.push(value)}`;
    const where = ['valid_from <= $1'];
    if (filters.coin !== undefined) where.push(`coin = ${p(filters.coin)}`);
    if (filters.address !== undefined) where.push(`address = ${p(filters.address.toLowerCase())}`);
    if (filters.oid !== undefined) where.push(`oid = ${p(filters.oid)}`);
    if (filters.orderType !== undefined) where.push(`order_type = ${p(filters.orderType)}`);
    if (filters.start !== undefined) where.push(`timestamp >= ${p(iso(filters.start))}`);
    if (filters.end !== undefined) where.push(`timestamp <= ${p(iso(filters.end))}`);
    if (cursor !== null) where.push(`(address, oid) > (${p(cursor.address)}, ${p(cursor.oid)})`);
    const condition = where.join(' AND ');
    // The current and the closed versions are read apart, each ordered and limited on its own, so that
    // each is planned on its own indexes (a plain UNION ALL is sorted as a whole), then merged.
    const rows: IntervalRow[] = await q.query(
      `SELECT ${ORDER_COLUMNS} FROM (
         (SELECT ${ORDER_COLUMNS} FROM open_order_intervals WHERE valid_to IS NULL AND ${condition} ORDER BY address, oid LIMIT $2)
         UNION ALL
         (SELECT ${ORDER_COLUMNS} FROM open_order_intervals WHERE valid_to > $1 AND ${condition} ORDER BY address, oid LIMIT $2)
       ) v
       ORDER BY address, oid
       LIMIT $2`,
      params,
    );
    const more = rows.length > limit;
    const orders = rows.slice(0, limit).map((r) => toRecord(r, at));
    const last = orders.at(-1);
    return { snapshot: toSnapshot(snapshots[0]!), orders, nextCursor: more && last ? { address: last.address, oid: last.oid } : null };
  }
}
