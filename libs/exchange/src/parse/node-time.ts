import { WireError } from './parse-result.js';

/** An hl-node timestamp: the string as written (nanosecond precision, UTC without a zone) and its epoch ms. */
export interface NodeTime {
  iso: string;
  ms: number;
}

// hl-node writes "2026-06-28T08:43:53.257028820": UTC, no zone, up to nanoseconds. A trailing Z is
// accepted too so a source that adds the zone does not break the feed.
const NODE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?Z?$/;

// The events of a block mostly carry the block's own time: the last timestamp read is kept.
let lastText = '';
let lastMs = 0;

/** Epoch milliseconds of an hl-node timestamp (sub-millisecond digits truncated), or null if it is not one. */
export function nodeTimeToMs(text: string): number | null {
  if (text === lastText) return lastMs;
  const match = NODE_TIME.exec(text);
  if (match === null) return null;
  const [, year, month, day, hour, minute, second, fraction = ''] = match;
  const ms = Date.UTC(+year!, +month! - 1, +day!, +hour!, +minute!, +second!, +fraction.padEnd(3, '0').slice(0, 3));
  // Date.UTC rolls over out-of-range parts (month 13, second 61); a real timestamp survives the round trip.
  if (new Date(ms).toISOString().slice(0, 19) !== text.slice(0, 19)) return null;
  lastText = text;
  lastMs = ms;
  return ms;
}

export function expectNodeTime(value: unknown, path: string): NodeTime {
  if (typeof value !== 'string') throw new WireError(path, `expected a timestamp string, got ${typeof value}`);
  const ms = nodeTimeToMs(value);
  if (ms === null) throw new WireError(path, `not a timestamp like 2026-06-28T08:43:53.257028820: ${JSON.stringify(value)}`);
  return { iso: value, ms };
}
