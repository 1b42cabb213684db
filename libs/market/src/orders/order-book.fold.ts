import Big from 'big.js';
import type { BookOrder, OrderBlock, StatusChange } from './open-order.types.js';

/** What a run of blocks does to one order of the book. */
export type BookChange = { address: string; oid: number } &
  /** Put this version in the book (`sz` is what remains, always above 0). */
  (
    | { kind: 'place'; order: BookOrder; height: number }
    | { kind: 'remove' }
    /** Reduce the booked version, if there is one, by `amount`. */
    | { kind: 'fill'; amount: string; height: number }
  );

export const orderKey = (address: string, oid: number): string => `${address}|${oid}`;

/**
 * Folds blocks (in block order, both streams mixed) into one change per order, so the book is written
 * with a statement per kind of change however many blocks there are. Per block:
 * - the order's last status in the block decides: `open` places it (replacing the booked version), any
 *   other status (filled, canceled, triggered, rejected, ...) takes it out of the book;
 * - a fill in the same block as the `open` may or may not be counted in that status's `sz` already, so
 *   the order keeps least(status sz, origSz - fills of this block): right in both cases for an order
 *   placed in this block;
 * - a fill in a later block reduces the remaining size; at zero the order leaves the book;
 * - a fill of an order without a status in the run reduces whatever the book holds for it.
 */
export function foldOrderBlocks(blocks: OrderBlock[]): Map<string, BookChange> {
  const changes = new Map<string, BookChange>();
  for (let start = 0; start < blocks.length;) {
    let end = start;
    while (end < blocks.length && blocks[end]!.blockNumber === blocks[start]!.blockNumber) end++;
    applyBlock(changes, blocks.slice(start, end), blocks[start]!.blockNumber);
    start = end;
  }
  return changes;
}

/** The streams' parts of one block number. */
function applyBlock(changes: Map<string, BookChange>, parts: OrderBlock[], height: number): void {
  const statuses = new Map<string, StatusChange>();
  const fills = new Map<string, { address: string; oid: number; amount: Big }>();
  for (const part of parts) {
    if (part.stream === 'node_order_statuses_by_block') {
      for (const s of part.statuses) {
        const key = orderKey(s.order.address, s.order.oid);
        const seen = statuses.get(key);
        if (!seen || s.index >= seen.index) statuses.set(key, s);
      }
    } else {
      for (const f of part.fills) {
        const key = orderKey(f.address, f.oid);
        const seen = fills.get(key);
        fills.set(key, { address: f.address, oid: f.oid, amount: (seen?.amount ?? new Big(0)).plus(f.sz) });
      }
    }
  }

  for (const [key, { status, order }] of statuses) {
    const { address, oid } = order;
    if (status !== 'open') {
      changes.set(key, { address, oid, kind: 'remove' });
      continue;
    }
    const filled = fills.get(key);
    const left = filled ? new Big(order.origSz).minus(filled.amount) : null;
    const sz = left !== null && left.lt(order.sz) ? left.toFixed() : order.sz;
    changes.set(
      key,
      new Big(sz).gt(0) ? { address, oid, kind: 'place', order: { ...order, sz }, height } : { address, oid, kind: 'remove' },
    );
  }

  for (const [key, { address, oid, amount }] of fills) {
    if (statuses.has(key)) continue;
    const before = changes.get(key);
    if (!before) {
      changes.set(key, { address, oid, kind: 'fill', amount: amount.toFixed(), height });
    } else if (before.kind === 'fill') {
      changes.set(key, { address, oid, kind: 'fill', amount: amount.plus(before.amount).toFixed(), height });
    } else if (before.kind === 'place') {
      const left = new Big(before.order.sz).minus(amount);
      changes.set(
        key,
        left.gt(0) ? { ...before, order: { ...before.order, sz: left.toFixed() }, height } : { address, oid, kind: 'remove' },
      );
    }
  }
}
