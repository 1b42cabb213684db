import type { Side } from '../parse/wire-reader.js';

/** The full order shape of `frontendOpenOrders`, `historicalOrders` and hl-node order statuses. */
export interface Order {
  coin: string;
  side: Side;
  limitPx: string;
  /** Remaining size ("0.0" once filled). */
  sz: string;
  oid: number;
  /** Epoch ms of placement. */
  timestamp: number;
  /** "N/A" for plain orders, else e.g. "Price above 10.004". */
  triggerCondition: string;
  isTrigger: boolean;
  triggerPx: string;
  /** TP/SL orders attached to this one. */
  children: Order[];
  isPositionTpsl: boolean;
  reduceOnly: boolean;
  /** Open string: "Limit", "Stop Market", "Take Profit Market", ... */
  orderType: string;
  origSz: string;
  /** "Gtc", "Alo", "Ioc"; null for trigger orders. */
  tif: string | null;
  cloid: string | null;
}

/** The short shape of the info API's `openOrders`. */
export interface BasicOpenOrder {
  coin: string;
  side: Side;
  limitPx: string;
  sz: string;
  oid: number;
  timestamp: number;
  origSz: string | null;
  reduceOnly: boolean | null;
  cloid: string | null;
}

/**
 * Order status names are an open set ("open", "filled", "canceled", "triggered", "rejected",
 * "marginCanceled", "perpMarginRejected", "iocCancelRejected", ...): new ones must not stop the feed.
 */
export type OrderStatus = string;

/** The builder an order was routed through: hl-node writes `{b, f}` (f in tenths of a basis point) or an address. */
export interface OrderBuilder {
  address: string;
  feeTenthsBp: number | null;
}

/** A `node_order_statuses_by_block` event. */
export interface NodeOrderStatusEvent {
  index: number;
  time: string;
  timeMs: number;
  user: string;
  /** Null on some changes (in the samples: "filled" and "perpMarginRejected"; "open" has one). */
  hash: string | null;
  builder: OrderBuilder | null;
  status: OrderStatus;
  order: Order;
}

/** An item of the info API's `historicalOrders`. */
export interface HistoricalOrder {
  order: Order;
  status: OrderStatus;
  statusTimestamp: number;
}
