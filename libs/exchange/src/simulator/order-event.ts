import type { Side } from '../parse/wire-reader.js';

/** The wire shape of an order inside a `node_order_statuses_by_block` event, keys in hl-node's order. */
export interface WireOrder {
  coin: string;
  side: Side;
  limitPx: string;
  sz: string;
  oid: number;
  timestamp: number;
  triggerCondition: string;
  isTrigger: boolean;
  triggerPx: string;
  children: WireOrder[];
  isPositionTpsl: boolean;
  reduceOnly: boolean;
  orderType: 'Limit' | 'Stop Limit' | 'Stop Market' | 'Take Profit Limit' | 'Take Profit Market';
  origSz: string;
  tif: 'Alo' | 'Ioc' | 'Gtc' | null;
  cloid: string | null;
}

export interface WireBuilder {
  b: string;
  /** Builder fee in tenths of a basis point. */
  f: number;
}

/** The same order with `sz` left; origSz stays what was placed. */
export function withRemaining(order: WireOrder, sz: string): WireOrder {
  return { ...order, sz };
}
