import type { NodeBlock, NodeOrderStatusEvent } from '#exchange';
import type { BookOrder, OrderBlock } from './open-order.types.js';

export function bookOrder({ user, order, builder }: NodeOrderStatusEvent): BookOrder {
  return {
    address: user.toLowerCase(),
    oid: order.oid,
    coin: order.coin,
    side: order.side,
    limitPx: order.limitPx,
    sz: order.sz,
    origSz: order.origSz,
    timestampMs: order.timestamp,
    triggerCondition: order.triggerCondition,
    isTrigger: order.isTrigger,
    triggerPx: order.triggerPx,
    children: order.children,
    isPositionTpsl: order.isPositionTpsl,
    reduceOnly: order.reduceOnly,
    orderType: order.orderType,
    tif: order.tif,
    cloid: order.cloid,
    builder: builder?.address.toLowerCase() ?? null,
    builderFee: builder?.feeTenthsBp ?? null,
  };
}

/** The part of a block the book needs, or null for the streams that do not move it. */
export function orderBlock(block: NodeBlock): OrderBlock | null {
  const header = { blockNumber: block.blockNumber, timeMs: block.blockTimeMs };
  if (block.stream === 'node_order_statuses_by_block') {
    return {
      stream: block.stream,
      ...header,
      statuses: block.events.map((e) => ({ index: e.index, status: e.status, order: bookOrder(e) })),
    };
  }
  if (block.stream === 'node_fills_by_block') {
    return {
      stream: block.stream,
      ...header,
      fills: block.events.map((e) => ({ address: e.address.toLowerCase(), oid: e.fill.oid, sz: e.fill.sz })),
    };
  }
  return null;
}
