import { parseEach, type ParseResult, type ParseSource } from '../parse/parse-result.js';
import { singleKey, WireObject } from '../parse/wire-reader.js';
import type { DelegatorDelta, DelegatorEvent } from './info.types.js';

const READERS: Record<string, (o: WireObject) => DelegatorDelta> = {
  delegate: (o) => ({
    kind: 'delegate',
    validator: o.address('validator'),
    amount: o.decimal('amount'),
    isUndelegate: o.boolean('isUndelegate'),
  }),
  cDeposit: (o) => ({ kind: 'cDeposit', amount: o.decimal('amount') }),
  withdrawal: (o) => ({ kind: 'withdrawal', amount: o.decimal('amount'), phase: o.optionalString('phase') }),
};

function readDelegatorEvent(value: unknown, path: string): DelegatorEvent {
  const o = new WireObject(value, path);
  const delta = o.object('delta');
  const wireKind = singleKey(delta);
  const reader = Object.hasOwn(READERS, wireKind) ? READERS[wireKind] : undefined;
  return {
    time: o.uint('time'),
    hash: o.hash('hash'),
    delta: reader ? reader(delta.object(wireKind)) : { kind: 'unknown', wireKind, raw: delta.raw[wireKind] },
  };
}

/** Info `delegatorHistory` (staking): unknown delta kinds are kept as `unknown`. */
export function parseDelegatorHistory(value: unknown, source: ParseSource): ParseResult<DelegatorEvent[]> {
  return parseEach(value, source, '', readDelegatorEvent);
}
