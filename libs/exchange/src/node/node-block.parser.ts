import { readNodeFillEvent } from '../fills/fill.parser.js';
import { readNodeMiscEvent } from '../misc/misc-event.parser.js';
import { readNodeOrderStatusEvent } from '../orders/order.parser.js';
import { fail, parseEach, parseRecord, succeed, type ParseResult, type ParseSource } from '../parse/parse-result.js';
import { WireObject } from '../parse/wire-reader.js';
import { readNodeTwapStatusEvent } from '../twap/twap-status.parser.js';
import { NODE_STREAMS, type NodeBlock, type NodeBlockHeader, type NodeBlockOf, type NodeStream } from './node-block.types.js';

type EventReader = (value: unknown, path: string, index: number) => NodeBlock['events'][number];

const EVENT_READERS: Record<NodeStream, EventReader> = {
  node_fills_by_block: readNodeFillEvent,
  node_order_statuses_by_block: readNodeOrderStatusEvent,
  node_twap_statuses_by_block: readNodeTwapStatusEvent,
  misc_events_by_block: readNodeMiscEvent,
};

// Some tools and the recorded samples name the misc stream like the others.
const STREAM_ALIASES: Record<string, NodeStream> = { node_misc_events_by_block: 'misc_events_by_block' };

/** The canonical stream for a directory or stream name, or null if it is not an hl-node block stream. */
export function toNodeStream(name: string): NodeStream | null {
  if ((NODE_STREAMS as readonly string[]).includes(name)) return name as NodeStream;
  return STREAM_ALIASES[name] ?? null;
}

function readHeader(o: WireObject): NodeBlockHeader {
  const blockTime = o.nodeTime('block_time');
  const localTime = o.nodeTime('local_time');
  return {
    blockNumber: o.uint('block_number'),
    blockTime: blockTime.iso,
    blockTimeMs: blockTime.ms,
    localTime: localTime.iso,
    localTimeMs: localTime.ms,
  };
}

/**
 * Parses one block (already JSON-decoded) of an hl-node stream. A block without its envelope fields
 * fails as a whole; otherwise each event is its own record: the good ones are kept and each bad one
 * is an issue naming its path (`events[3].fill.px`), so one bad event never drops its neighbours and
 * never leaves a half event behind.
 */
export function parseBlock<S extends string>(stream: S, value: unknown, source: ParseSource): ParseResult<NodeBlockOf<S>> {
  const where: ParseSource = { stream, ...source };
  const canonical = toNodeStream(stream);
  if (canonical === null) return fail(where, '', `unknown hl-node stream ${JSON.stringify(stream)}`);
  const envelope = parseRecord(where, () => {
    const o = new WireObject(value, '');
    return { header: readHeader(o), events: o.required('events') };
  });
  if (!envelope.ok) return envelope;
  const events = parseEach(envelope.value.events, where, 'events', EVENT_READERS[canonical]);
  if (!events.ok) return events;
  const block = { stream: canonical, ...envelope.value.header, events: events.value } as NodeBlock;
  return succeed(block as NodeBlockOf<S>, events.issues);
}

/** Parses one line of an hl-node `--batch-by-block` file: a line that is not JSON is one issue for the line. */
export function parseBlockLine<S extends string>(stream: S, text: string, source: ParseSource): ParseResult<NodeBlockOf<S>> {
  const where: ParseSource = { stream, ...source };
  if (text.trim() === '') return fail(where, '', 'empty line');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return fail(where, '', `not JSON: ${(error as Error).message}`);
  }
  return parseBlock(stream, value, where);
}
