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
// Every timestamp of an hour shares its first 13 characters ("2026-06-28T08"): once one of them has been
// read in full, the others need only their minutes, seconds and fraction (a feed reads millions of them).
const HOUR_PREFIX = 13;
let hourText = '';
let hourMs = 0;

/** Epoch milliseconds of an hl-node timestamp (sub-millisecond digits truncated), or null if it is not one. */
export function nodeTimeToMs(text: string): number | null {
  if (text === lastText) return lastMs;
  const ms = withinKnownHour(text) ?? readInFull(text);
  if (ms !== null) {
    lastText = text;
    lastMs = ms;
  }
  return ms;
}

function readInFull(text: string): number | null {
  const match = NODE_TIME.exec(text);
  if (match === null) return null;
  const [, year, month, day, hour, minute, second, fraction = ''] = match;
  const ms = Date.UTC(+year!, +month! - 1, +day!, +hour!, +minute!, +second!, +fraction.padEnd(3, '0').slice(0, 3));
  // Date.UTC rolls over out-of-range parts (month 13, second 61); a real timestamp survives the round trip.
  if (new Date(ms).toISOString().slice(0, 19) !== text.slice(0, 19)) return null;
  hourText = text.slice(0, HOUR_PREFIX);
  hourMs = ms - (+minute! * 60 + +second!) * 1000 - (ms % 1000);
  return ms;
}

const digit = (text: string, i: number): number => {
  const d = text.charCodeAt(i) - 48;
  return d >= 0 && d <= 9 ? d : -1;
};

/** The ms of a timestamp in the hour read last, or null to read it in full (another hour, or anything unusual). */
function withinKnownHour(text: string): number | null {
  if (hourText === '' || !text.startsWith(hourText) || text.length < 19 || text[13] !== ':' || text[16] !== ':') return null;
  const m1 = digit(text, 14),
    m2 = digit(text, 15),
    s1 = digit(text, 17),
    s2 = digit(text, 18);
  if (m1 < 0 || m1 > 5 || m2 < 0 || s1 < 0 || s1 > 5 || s2 < 0) return null;
  let end = text.length;
  if (text[end - 1] === 'Z') end--;
  let millis = 0;
  if (end > 19) {
    // A fraction: a dot and 1 to 9 digits, of which the first three are the milliseconds.
    if (text[19] !== '.' || end - 20 < 1 || end - 20 > 9) return null;
    for (let i = 20; i < end; i++) {
      const d = digit(text, i);
      if (d < 0) return null;
      if (i < 23) millis += d * (i === 20 ? 100 : i === 21 ? 10 : 1);
    }
  } else if (end !== 19) return null;
  return hourMs + ((m1 * 10 + m2) * 60 + s1 * 10 + s2) * 1000 + millis;
}

export function expectNodeTime(value: unknown, path: string): NodeTime {
  if (typeof value !== 'string') throw new WireError(path, `expected a timestamp string, got ${typeof value}`);
  const ms = nodeTimeToMs(value);
  if (ms === null) throw new WireError(path, `not a timestamp like 2026-06-28T08:43:53.257028820: ${JSON.stringify(value)}`);
  return { iso: value, ms };
}
