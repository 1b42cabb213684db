export const STREAM_CHANNELS = ['fills', 'liquidations', 'ledger'] as const;
export type StreamChannel = (typeof STREAM_CHANNELS)[number];

/** An exchange position: the block and the event's place in it (in its own stream of the node). */
export interface StreamCursor {
  block: number;
  index: number;
}

/**
 * One committed exchange event as the fan-out carries it: what the filters read, and the frame's data.
 * The same event always gets the same `eventId`, so a client deduplicates by it.
 */
export interface StreamEvent {
  channel: StreamChannel;
  eventId: string;
  cursor: StreamCursor;
  /** The market; null when the event has none (ledger). */
  coin: string | null;
  /** The wallets the event concerns, lower-case. */
  addresses: string[];
  /** `B`/`A` for a fill, `long`/`short` for the liquidated position; null for ledger events. */
  side: string | null;
  /** The USD value the `minNotionalUsd` filter compares with: a decimal string. */
  notionalUsd: string;
  data: Record<string, unknown>;
}
