/** An order as the book holds it: the Open-order fields of the API contract that hl-node gives, decimals exact. */
export interface BookOrder {
  /** Lower-cased, so fills and statuses of one wallet always meet. */
  address: string;
  oid: number;
  coin: string;
  side: 'A' | 'B';
  limitPx: string;
  /** Remaining size. */
  sz: string;
  origSz: string;
  /** Creation time, epoch ms. */
  timestampMs: number;
  triggerCondition: string;
  isTrigger: boolean;
  triggerPx: string;
  children: unknown[];
  isPositionTpsl: boolean;
  reduceOnly: boolean;
  orderType: string;
  tif: string | null;
  cloid: string | null;
  builder: string | null;
  /** hl-node's `f`, in tenths of a basis point. */
  builderFee: number | null;
}

export interface StatusChange {
  /** Place in the block line: the last status of an order in a block is its state after the block. */
  index: number;
  status: string;
  order: BookOrder;
}

export interface FillChange {
  address: string;
  oid: number;
  sz: string;
}

/** What the book needs of one block of the order-status or fills stream (JSON-safe: the backlog stores it). */
export type OrderBlock =
  | { stream: 'node_order_statuses_by_block'; blockNumber: number; timeMs: number; statuses: StatusChange[] }
  | { stream: 'node_fills_by_block'; blockNumber: number; timeMs: number; fills: FillChange[] };

/** A block position of a stream. */
export interface BlockMark {
  block: number;
  timeMs: number;
}

export interface OrderSnapshot {
  /** ISO 8601 with milliseconds. */
  snapshotTs: string;
  /** The last block applied before the snapshot time. */
  height: number;
  orderCount: number;
}

/** The Open-order record of the API contract; decimals are exact strings, the API turns them into numbers. */
export interface OpenOrderRecord {
  /** Block of this version of the order: its placement, or the last fill or status that changed it. */
  height: number;
  address: string;
  oid: number;
  coin: string;
  side: 'A' | 'B';
  limitPx: string;
  sz: string;
  origSz: string;
  /** Creation time, ISO 8601. */
  timestamp: string;
  triggerCondition: string;
  isTrigger: boolean;
  triggerPx: string;
  children: unknown[];
  isPositionTpsl: boolean;
  reduceOnly: boolean;
  orderType: string;
  tif: string;
  cloid: string;
  status: 'open';
  builder: string;
  /** Tenths of a basis point, as hl-node gives it (10 = 0.01 %); 0 without a builder fee. */
  builderFee: number;
  untriggered: boolean;
  snapshotTs: string;
}

export interface OpenOrderFilters {
  coin?: string;
  address?: string;
  oid?: number;
  orderType?: string;
  /** Orders created at or after (ISO 8601 or epoch ms). */
  start?: string | number;
  /** Orders created at or before. */
  end?: string | number;
}

/** Keyset position: the last (address, oid) of the previous page. */
export interface OpenOrderCursor {
  address: string;
  oid: number;
}

export interface OpenOrdersPage {
  snapshot: OrderSnapshot;
  orders: OpenOrderRecord[];
  /** Null on the last page. */
  nextCursor: OpenOrderCursor | null;
}
