import type { WireObject } from '../parse/wire-reader.js';

/** What every timed hl-node event carries: its place in the block and its time, as written and in ms. */
export interface NodeEventHeader {
  index: number;
  time: string;
  timeMs: number;
}

export function readNodeEventHeader(o: WireObject, index: number): NodeEventHeader {
  const time = o.nodeTime('time');
  return { index, time: time.iso, timeMs: time.ms };
}
