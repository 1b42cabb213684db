import { readFill } from '../fills/fill.parser.js';
import { parseUserFunding } from '../info/funding.parser.js';
import { readLedgerUpdate } from '../ledger/ledger-delta.parser.js';
import { parseEach, parseRecord, succeed, WireError, type ParseResult, type ParseSource } from '../parse/parse-result.js';
import { WireObject } from '../parse/wire-reader.js';
import { normaliseTwapStatus, readTwapState } from '../twap/twap-status.parser.js';
import type { Fill } from '../fills/fill.types.js';
import { parseWsFrame } from '../ws/ws-frame.parser.js';
import type { WsFrame } from '../ws/ws-frame.types.js';
import { emptyActivity, type ApiFunding, type ApiTwapStatus, type UserActivity } from './hyperliquid-api.types.js';

/** The per-user channels followed for each tracked address, as subscription types. */
export const USER_CHANNELS = ['userEvents', 'userFills', 'userFundings', 'userNonFundingLedgerUpdates', 'userTwapHistory'] as const;

export type UserChannelMessage =
  /** `user` is null on `userEvents`, whose frames do not name the wallet: the connection does. */
  | { kind: 'activity'; channel: string; user: string | null; isSnapshot: boolean; activity: UserActivity }
  | { kind: 'error'; message: string }
  /** pong, subscriptionResponse and channels not followed here. */
  | { kind: 'other'; channel: string };

function readWsFunding(value: unknown, path: string): ApiFunding {
  const o = new WireObject(value, path);
  return {
    time: o.uint('time'),
    coin: o.nonEmptyString('coin'),
    usdc: o.decimal('usdc'),
    szi: o.decimal('szi'),
    fundingRate: o.decimal('fundingRate'),
    nSamples: o.optionalUint('nSamples'),
    hash: null,
  };
}

/** A `userTwapHistory` entry: `{time (seconds), state, status: {status, description?}, twapId}`. */
function readTwapHistoryEntry(value: unknown, path: string): ApiTwapStatus {
  const o = new WireObject(value, path);
  const twapId = o.optionalUint('twapId');
  // twap_statuses are keyed by the id; old records without one cannot be stored once.
  if (twapId === null) throw new WireError(o.at('twapId'), 'missing');
  const status = o.object('status');
  const wire = status.nonEmptyString('status');
  return {
    timeMs: o.uint('time') * 1000,
    twapId,
    state: readTwapState(o.required('state'), o.at('state')),
    ...(wire === 'error'
      ? { status: 'error', description: status.optionalString('description') }
      : normaliseTwapStatus(wire, status.at('status'))),
  };
}

/** `{isSnapshot?, user, <list>: [...]}`: each list item is its own record, so one bad item is an issue and the rest is kept. */
function readUserList<T>(
  data: unknown,
  source: ParseSource,
  listKey: string,
  read: (item: unknown, path: string) => T,
): ParseResult<{ user: string; isSnapshot: boolean; items: T[] }> {
  const head = parseRecord(source, () => {
    const o = new WireObject(data, 'data');
    return { user: o.address('user').toLowerCase(), isSnapshot: o.optionalBoolean('isSnapshot') ?? false, list: o.required(listKey) };
  });
  if (!head.ok) return head;
  const items = parseEach(head.value.list, source, `data.${listKey}`, read);
  if (!items.ok) return items;
  return succeed({ user: head.value.user, isSnapshot: head.value.isSnapshot, items: items.value }, items.issues);
}

function activityOf<K extends keyof UserActivity>(key: K, items: UserActivity[K]): UserActivity {
  return { ...emptyActivity(), [key]: items };
}

const LIST_CHANNELS: Record<string, { listKey: string; activityKey: keyof UserActivity; read: (item: unknown, path: string) => unknown }> =
  {
    userFills: { listKey: 'fills', activityKey: 'fills', read: readFill },
    userFundings: { listKey: 'fundings', activityKey: 'fundings', read: readWsFunding },
    userNonFundingLedgerUpdates: { listKey: 'nonFundingLedgerUpdates', activityKey: 'ledger', read: readLedgerUpdate },
    userTwapHistory: { listKey: 'history', activityKey: 'twaps', read: readTwapHistoryEntry },
  };

/**
 * Parses one websocket message of the per-user channels into what it says about the wallet. `userEvents`
 * arrives on channel `user` (the recorded fixture names it `userEvents`; both are read); its liquidation
 * and nonUserCancel parts are not taken: a liquidation is stored through the fills that carry it and the
 * victim's `liquidation` ledger update.
 */
export function parseUserChannelMessage(value: unknown, source: ParseSource): ParseResult<UserChannelMessage> {
  const head = parseRecord(source, () => {
    const o = new WireObject(value, '');
    return { channel: o.nonEmptyString('channel'), data: o.raw['data'] };
  });
  if (!head.ok) return head;
  const { channel, data } = head.value;
  if (channel === 'error') return succeed({ kind: 'error', message: typeof data === 'string' ? data : JSON.stringify(data) });
  if (channel === 'user' || channel === 'userEvents') {
    const frame = parseWsFrame({ channel: 'userEvents', data }, source);
    if (!frame.ok) return frame;
    const { fills, funding } = (frame.value as Extract<WsFrame, { channel: 'userEvents' }>).data;
    const activity: UserActivity = { ...emptyActivity(), fills: fills ?? [], fundings: funding ? [{ ...funding, hash: null }] : [] };
    return succeed({ kind: 'activity', channel, user: null, isSnapshot: false, activity }, frame.issues);
  }
  const list = LIST_CHANNELS[channel];
  if (!list) return succeed({ kind: 'other', channel });
  const read = readUserList(data, source, list.listKey, list.read);
  if (!read.ok) return read;
  const { user, isSnapshot, items } = read.value;
  return succeed({ kind: 'activity', channel, user, isSnapshot, activity: activityOf(list.activityKey, items as never) }, read.issues);
}

/** Info `userFillsByTime`: fills without a trade id (very old ones) are issues, since a fill is stored by (tid, address). */
export function parseInfoFills(value: unknown, source: ParseSource): ParseResult<Fill[]> {
  return parseEach(value, source, '', readFill);
}

/** Info `userFunding`, as the payments the websocket also sends. */
export function parseInfoFundings(value: unknown, source: ParseSource): ParseResult<ApiFunding[]> {
  const result = parseUserFunding(value, source);
  if (!result.ok) return result;
  const fundings = result.value.map(({ time, hash, delta }) => ({
    time,
    coin: delta.coin,
    usdc: delta.usdc,
    szi: delta.szi,
    fundingRate: delta.fundingRate,
    nSamples: delta.nSamples,
    hash,
  }));
  return succeed(fundings, result.issues);
}
