import { Injectable } from '@nestjs/common';
import type { BookOrder } from './open-order.types.js';
import { orderKey, type BookChange } from './order-book.fold.js';
import { isoTime, sqlArray, type SqlArrayElement, type SqlRunner } from '#database';

const PLACE = `
  INSERT INTO open_orders (address, oid, coin, side, limit_px, sz, orig_sz, timestamp, trigger_condition, is_trigger, trigger_px,
                           children, is_position_tpsl, reduce_only, order_type, tif, cloid, builder, builder_fee, height, gone, pending_for)
  SELECT *, false, $21
  FROM unnest($1::text[], $2::bigint[], $3::text[], $4::text[], $5::numeric[], $6::numeric[], $7::numeric[], $8::timestamptz[],
              $9::text[], $10::boolean[], $11::numeric[], $12::jsonb[], $13::boolean[], $14::boolean[], $15::text[], $16::text[],
              $17::text[], $18::text[], $19::int[], $20::bigint[])
  ON CONFLICT (address, oid) DO UPDATE SET
    coin = EXCLUDED.coin, side = EXCLUDED.side, limit_px = EXCLUDED.limit_px, sz = EXCLUDED.sz, orig_sz = EXCLUDED.orig_sz,
    timestamp = EXCLUDED.timestamp, trigger_condition = EXCLUDED.trigger_condition, is_trigger = EXCLUDED.is_trigger,
    trigger_px = EXCLUDED.trigger_px, children = EXCLUDED.children, is_position_tpsl = EXCLUDED.is_position_tpsl,
    reduce_only = EXCLUDED.reduce_only, order_type = EXCLUDED.order_type, tif = EXCLUDED.tif, cloid = EXCLUDED.cloid,
    builder = EXCLUDED.builder, builder_fee = EXCLUDED.builder_fee, height = EXCLUDED.height, gone = false, pending_for = $21`;

// A null amount removes the order. A removed order stays as a `gone` row until the next snapshot has
// closed its interval.
// Each change looks its order up by the primary key (a LATERAL with LIMIT is never turned into a join),
// and the row found is updated by its ctid. Most changes name orders the book does not hold (a maker's
// quote placed and filled in one block). Joined plainly, the planner hashed the whole book for the few
// hundred changes of a snapshot: at the default book of some 5,000 orders that was 4.3 ms a statement
// over two simulated days of the first start, 3.1 ms this way. The book has one writer at a time (the
// feed progress lock held by OpenOrdersWriter, one order source per database), so no other transaction
// moves a row between the lookup and the update; a concurrent update would leave that row unchanged.
// Returns the orders that left the book (a statement of its own: the driver returns an UPDATE's rows with
// its count).
const REDUCE_OR_REMOVE = `
  WITH changed AS (
    UPDATE open_orders o SET
      sz = CASE WHEN c.amount IS NULL THEN o.sz ELSE o.sz - c.amount END,
      height = coalesce(c.height, o.height),
      gone = c.amount IS NULL OR o.sz - c.amount <= 0,
      pending_for = $5
    FROM unnest($1::text[], $2::bigint[], $3::numeric[], $4::bigint[]) AS c(address, oid, amount, height)
    CROSS JOIN LATERAL (SELECT b.ctid AS row_id FROM open_orders b WHERE b.address = c.address AND b.oid = c.oid AND NOT b.gone LIMIT 1) booked
    WHERE o.ctid = booked.row_id
    RETURNING o.address, o.oid, o.gone
  )
  SELECT address, oid::text AS oid FROM changed WHERE gone`;

/** The array parameter of one column of `rows`, for an unnest. */
const columnOf =
  <T>(rows: readonly T[]) =>
  (value: (row: T) => SqlArrayElement): string =>
    sqlArray(rows.map(value));

/** The live book: the current open orders, written set-wise (two statements whatever the number of changes). */
@Injectable()
export class OpenOrdersRepository {
  /**
   * `pendingForMs`: the snapshot that will first show these changes (the next boundary after them).
   * `booked`: the keys of the orders the book holds (BookedOrderKeys), kept up to date here: a fill or
   * removal of an order it does not hold is left out, as it would change nothing.
   */
  async apply(q: SqlRunner, changes: Iterable<BookChange>, pendingForMs: number, booked: Set<string>): Promise<void> {
    const pendingFor = isoTime(pendingForMs);
    const placed: Array<{ order: BookOrder; height: number }> = [];
    const others: Array<{ address: string; oid: number; amount: string | null; height: number | null }> = [];
    for (const change of changes) {
      if (change.kind === 'place') {
        placed.push(change);
        booked.add(orderKey(change.address, change.oid));
      } else if (booked.has(orderKey(change.address, change.oid))) {
        others.push(change.kind === 'fill' ? change : { address: change.address, oid: change.oid, amount: null, height: null });
      }
    }
    if (placed.length > 0) {
      const column = columnOf(placed.map((p) => p.order));
      await q.query(PLACE, [
        column((r) => r.address),
        column((r) => r.oid),
        column((r) => r.coin),
        column((r) => r.side),
        column((r) => r.limitPx),
        column((r) => r.sz),
        column((r) => r.origSz),
        column((r) => isoTime(r.timestampMs)),
        column((r) => r.triggerCondition),
        column((r) => r.isTrigger),
        column((r) => r.triggerPx),
        column((r) => JSON.stringify(r.children)),
        column((r) => r.isPositionTpsl),
        column((r) => r.reduceOnly),
        column((r) => r.orderType),
        column((r) => r.tif),
        column((r) => r.cloid),
        column((r) => r.builder),
        column((r) => r.builderFee),
        columnOf(placed)((p) => p.height),
        pendingFor,
      ]);
    }
    if (others.length > 0) {
      const column = columnOf(others);
      const left: Array<{ address: string; oid: string }> = await q.query(REDUCE_OR_REMOVE, [
        column((r) => r.address),
        column((r) => r.oid),
        column((r) => r.amount),
        column((r) => r.height),
        pendingFor,
      ]);
      for (const row of left) booked.delete(orderKey(row.address, Number(row.oid)));
    }
  }
}
