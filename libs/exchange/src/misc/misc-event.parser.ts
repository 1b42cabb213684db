import { readLedgerDelta } from '../ledger/ledger-delta.parser.js';
import { expectAddress, singleKey, WireObject } from '../parse/wire-reader.js';
import type { MiscEventBody, NodeFundingDelta, NodeMiscEvent } from './misc-event.types.js';
import { readNodeEventHeader } from '../node/node-event-header.js';

function readFundingDelta(value: unknown, path: string): NodeFundingDelta {
  const o = new WireObject(value, path);
  return {
    user: o.address('user'),
    coin: o.nonEmptyString('coin'),
    fundingAmount: o.decimal('funding_amount'),
    szi: o.decimal('szi'),
    fundingRate: o.decimal('funding_rate'),
  };
}

const READERS: Record<string, (o: WireObject) => MiscEventBody> = {
  LedgerUpdate: (o) => ({
    kind: 'ledgerUpdate',
    users: o.array('users', expectAddress),
    delta: readLedgerDelta(o.required('delta'), o.at('delta')),
  }),
  // A funding event carries every user's payment; one bad delta skips the event rather than
  // storing a funding round with payments missing.
  Funding: (o) => ({ kind: 'funding', deltas: o.array('deltas', readFundingDelta) }),
  Delegation: (o) => ({
    kind: 'delegation',
    user: o.address('user'),
    validator: o.address('validator'),
    amount: o.decimal('amount'),
    isUndelegate: o.boolean('is_undelegate'),
  }),
  CDeposit: (o) => ({ kind: 'cDeposit', user: o.address('user'), amount: o.decimal('amount') }),
  CWithdrawal: (o) => ({
    kind: 'cWithdrawal',
    user: o.address('user'),
    amount: o.decimal('amount'),
    isFinalized: o.boolean('is_finalized'),
  }),
};

export function readMiscEventBody(value: unknown, path: string): MiscEventBody {
  const inner = new WireObject(value, path);
  const wireKind = singleKey(inner);
  const reader = Object.hasOwn(READERS, wireKind) ? READERS[wireKind] : undefined;
  return reader ? reader(inner.object(wireKind)) : { kind: 'unknown', wireKind, raw: inner.raw[wireKind] };
}

export function readNodeMiscEvent(value: unknown, path: string, index: number): NodeMiscEvent {
  const o = new WireObject(value, path);
  return {
    ...readNodeEventHeader(o, index),
    hash: o.nullableHash('hash'),
    ...readMiscEventBody(o.required('inner'), o.at('inner')),
  };
}
