import type { NodeFillEvent } from '../fills/fill.types.js';
import type { NodeMiscEvent } from '../misc/misc-event.types.js';
import type { NodeOrderStatusEvent } from '../orders/order.types.js';
import type { NodeTwapStatusEvent } from '../twap/twap-status.types.js';

/** The hl-node `--batch-by-block` streams, named as their data directories. */
export const NODE_STREAMS = [
  'node_fills_by_block',
  'node_order_statuses_by_block',
  'node_twap_statuses_by_block',
  'misc_events_by_block',
] as const;

export type NodeStream = (typeof NODE_STREAMS)[number];

/** The envelope of every block line; wire snake_case is camelCase here, times also in epoch ms. */
export interface NodeBlockHeader {
  blockNumber: number;
  blockTime: string;
  blockTimeMs: number;
  localTime: string;
  localTimeMs: number;
}

export interface NodeFillsBlock extends NodeBlockHeader {
  stream: 'node_fills_by_block';
  events: NodeFillEvent[];
}

export interface NodeOrderStatusesBlock extends NodeBlockHeader {
  stream: 'node_order_statuses_by_block';
  events: NodeOrderStatusEvent[];
}

export interface NodeTwapStatusesBlock extends NodeBlockHeader {
  stream: 'node_twap_statuses_by_block';
  events: NodeTwapStatusEvent[];
}

export interface NodeMiscEventsBlock extends NodeBlockHeader {
  stream: 'misc_events_by_block';
  events: NodeMiscEvent[];
}

export type NodeBlock = NodeFillsBlock | NodeOrderStatusesBlock | NodeTwapStatusesBlock | NodeMiscEventsBlock;

/** The block type of a stream name known at compile time; any block for a name only known at run time. */
export type NodeBlockOf<S extends string> = S extends NodeStream ? Extract<NodeBlock, { stream: S }> : NodeBlock;
