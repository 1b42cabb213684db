import { WireError } from '../parse/parse-result.js';
import { isPlainObject, WireObject } from '../parse/wire-reader.js';
import { KNOWN_TWAP_STATUSES, type NodeTwapStatusEvent, type TwapState, type TwapStatus } from './twap-status.types.js';
import { readNodeEventHeader } from '../node/node-event-header.js';

export function readTwapState(value: unknown, path: string): TwapState {
  const o = new WireObject(value, path);
  return {
    coin: o.nonEmptyString('coin'),
    user: o.address('user'),
    side: o.side('side'),
    sz: o.decimal('sz'),
    executedSz: o.decimal('executedSz'),
    executedNtl: o.decimal('executedNtl'),
    minutes: o.uint('minutes'),
    reduceOnly: o.boolean('reduceOnly'),
    randomize: o.boolean('randomize'),
    timestamp: o.uint('timestamp'),
  };
}

/** Normalises the wire status: a string, or an object such as `{"error": "Insufficient margin"}`. */
export function normaliseTwapStatus(value: unknown, path: string): { status: TwapStatus; description: string | null } {
  if (typeof value === 'string' && value !== '') {
    const known = KNOWN_TWAP_STATUSES.find((status) => status === value);
    return known ? { status: known, description: null } : { status: 'unknown', description: value };
  }
  if (isPlainObject(value)) {
    if (typeof value['error'] === 'string') return { status: 'error', description: value['error'] };
    return { status: 'unknown', description: JSON.stringify(value) };
  }
  throw new WireError(path, value === undefined ? 'missing' : 'expected a status string or object');
}

export function readNodeTwapStatusEvent(value: unknown, path: string, index: number): NodeTwapStatusEvent {
  const o = new WireObject(value, path);
  return {
    ...readNodeEventHeader(o, index),
    twapId: o.uint('twap_id'),
    state: readTwapState(o.required('state'), o.at('state')),
    ...normaliseTwapStatus(o.raw['status'], o.at('status')),
  };
}
