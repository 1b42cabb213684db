import { Injectable } from '@nestjs/common';
import { keysetPage, ListQuery, type SqlRunner, ReadsTables } from '#database';
import type { OpenOrderCursor, OpenOrderFilters, OpenOrderRecord, OpenOrdersPage, OrderSnapshot } from '../../orders/open-order.types.js';

const COLUMNS = [
  'address',
  'oid',
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
].join(', ');

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

const iso = (at: string | number): string => new Date(at).toISOString();

const toSnapshot = (r: SnapshotRow): OrderSnapshot => ({
  snapshotTs: r.snapshot_ts.toISOString(),
  height: Number(r.height),
  orderCount: r.order_count,
});

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

/** What the order-snapshot routes read: the snapshots the open-orders writer takes, as validity intervals. */
@Injectable()
@ReadsTables('open_order_snapshots', 'open_order_intervals')
export class OrderSnapshotsQueries {
  async latestSnapshot(q: SqlRunner): Promise<OrderSnapshot | null> {
    const rows: SnapshotRow[] = await q.query(
      `SELECT snapshot_ts, height, order_count FROM open_order_snapshots ORDER BY snapshot_ts DESC LIMIT 1`,
    );
    return rows.length ? toSnapshot(rows[0]!) : null;
  }

  /**
   * One page of the orders open at snapshot `snapshotTs`, by (address, oid), or null when no snapshot was
   * taken then (off the grid, not reached yet, or expired). Filters combine with AND.
   */
  async openAt(
    q: SqlRunner,
    snapshotTs: string | number,
    filters: OpenOrderFilters,
    limit: number,
    cursor: OpenOrderCursor | null,
  ): Promise<OpenOrdersPage | null> {
    if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`limit must be a positive integer, got ${limit}`);
    const at = iso(snapshotTs);
    const snapshots: SnapshotRow[] = await q.query(
      `SELECT snapshot_ts, height, order_count FROM open_order_snapshots WHERE snapshot_ts = $1`,
      [at],
    );
    if (snapshots.length === 0) return null;

    // A version is open at the snapshot when valid_from <= at < valid_to (null valid_to: still open).
    const list = new ListQuery()
      .where('valid_from <= ?', at)
      .whereDefined('coin = ?', filters.coin)
      .whereDefined('address = ?', filters.address, (address) => address.toLowerCase())
      .whereDefined('oid = ?', filters.oid)
      .whereDefined('order_type = ?', filters.orderType)
      .whereDefined('timestamp >= ?', filters.start, iso)
      .whereDefined('timestamp <= ?', filters.end, iso)
      .after(['address', 'oid'], cursor && [cursor.address, cursor.oid], 'asc');
    const closedAfter = list.param(at);
    const limitPlusOne = list.param(limit + 1);
    // The current and the closed versions are read apart, each ordered and limited on its own, so that
    // each is planned on its own indexes (a plain UNION ALL is sorted as a whole), then merged. Both
    // branches use the same condition, so they share its parameters.
    const rows: IntervalRow[] = await q.query(
      `SELECT ${COLUMNS} FROM (
         (SELECT ${COLUMNS} FROM open_order_intervals WHERE valid_to IS NULL AND ${list.condition} ORDER BY address, oid LIMIT ${limitPlusOne})
         UNION ALL
         (SELECT ${COLUMNS} FROM open_order_intervals WHERE valid_to > ${closedAfter} AND ${list.condition} ORDER BY address, oid LIMIT ${limitPlusOne})
       ) v
       ORDER BY address, oid
       LIMIT ${limitPlusOne}`,
      list.params,
    );
    const { items, next } = keysetPage(rows, limit, (last) => ({ address: last.address, oid: Number(last.oid) }));
    return { snapshot: toSnapshot(snapshots[0]!), orders: items.map((r) => toRecord(r, at)), nextCursor: next };
  }
}
