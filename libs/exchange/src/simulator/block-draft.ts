import type { NodeStream } from '../node/node-block.types.js';
import type { TwapState } from '../twap/twap-status.types.js';
import type { SimLine } from './simulator.types.js';
import type { WireMiscEvent, WireMiscInner, WireTwapStatus, WireTwapStatusEvent } from './wire-event.types.js';

// hl-node streams are written independently; this is only the order of lines of one block in the output.
const STREAM_ORDER: readonly NodeStream[] = [
  'node_order_statuses_by_block',
  'node_fills_by_block',
  'node_twap_statuses_by_block',
  'misc_events_by_block',
];

/** The events of one block, collected per stream as JSON; streams with no event get no line, as on a real node. */
export class BlockDraft {
  private readonly events = new Map<NodeStream, string[]>();

  constructor(
    readonly blockNumber: number,
    readonly timeMs: number,
    /** The block time as hl-node writes it (nanosecond digits). */
    readonly time: string,
    private readonly localTime: string,
  ) {}

  /** A `misc_events_by_block` event at the block's time. */
  addMisc(inner: WireMiscInner, hash: string): void {
    const event: WireMiscEvent = { time: this.time, hash, inner };
    this.addJson('misc_events_by_block', JSON.stringify(event));
  }

  /** A `node_twap_statuses_by_block` event at the block's time. */
  addTwapStatus(twapId: number, state: TwapState, status: WireTwapStatus): void {
    const event: WireTwapStatusEvent = { time: this.time, twap_id: twapId, state, status };
    this.addJson('node_twap_statuses_by_block', JSON.stringify(event));
  }

  /** An event already written as JSON (wire-json.ts), as JSON.stringify would write it. */
  addJson(stream: NodeStream, json: string): void {
    let list = this.events.get(stream);
    if (!list) this.events.set(stream, (list = []));
    list.push(json);
  }

  get isEmpty(): boolean {
    return this.events.size === 0;
  }

  /** Each stream's line: what JSON.stringify gives for { local_time, block_time, block_number, events }. */
  lines(): SimLine[] {
    const out: SimLine[] = [];
    for (const stream of STREAM_ORDER) {
      const events = this.events.get(stream);
      if (!events) continue;
      const line = `{"local_time":"${this.localTime}","block_time":"${this.time}","block_number":${this.blockNumber},"events":[${events.join(',')}]}`;
      out.push({ stream, line, blockTime: this.time, blockTimeMs: this.timeMs, blockNumber: this.blockNumber });
    }
    return out;
  }
}
