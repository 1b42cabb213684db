import { readFill } from '../fills/fill.parser.js';
import { readL2Book } from '../info/market-info.parser.js';
import { parseEach, parseRecord, succeed, WireError, type ParseResult, type ParseSource } from '../parse/parse-result.js';
import { expectAddress, expectDecimal, WireObject } from '../parse/wire-reader.js';
import type { Candle, PerpAssetCtx, WsFrame, WsTrade, WsUserEvents } from './ws-frame.types.js';

const USER_EVENT_KEYS = new Set(['fills', 'funding', 'liquidation', 'nonUserCancel']);

function readAssetCtx(o: WireObject): PerpAssetCtx {
  return {
    funding: o.decimal('funding'),
    openInterest: o.decimal('openInterest'),
    prevDayPx: o.decimal('prevDayPx'),
    dayNtlVlm: o.decimal('dayNtlVlm'),
    premium: o.optionalDecimal('premium'),
    oraclePx: o.decimal('oraclePx'),
    markPx: o.decimal('markPx'),
    midPx: o.optionalDecimal('midPx'),
    impactPxs: o.optionalArray('impactPxs', expectDecimal),
    dayBaseVlm: o.optionalDecimal('dayBaseVlm'),
  };
}

function readTrade(value: unknown, path: string): WsTrade {
  const o = new WireObject(value, path);
  const users = o.array('users', expectAddress);
  if (users.length !== 2) throw new WireError(o.at('users'), `expected [buyer, seller], got ${users.length} addresses`);
  return {
    coin: o.nonEmptyString('coin'),
    side: o.side('side'),
    px: o.decimal('px'),
    sz: o.decimal('sz'),
    time: o.uint('time'),
    hash: o.hash('hash'),
    tid: o.uint('tid'),
    users: [users[0]!, users[1]!],
  };
}

function readCandle(o: WireObject): Candle {
  return {
    t: o.uint('t'),
    T: o.uint('T'),
    s: o.nonEmptyString('s'),
    i: o.nonEmptyString('i'),
    o: o.decimal('o'),
    c: o.decimal('c'),
    h: o.decimal('h'),
    l: o.decimal('l'),
    v: o.decimal('v'),
    n: o.uint('n'),
  };
}

/** Everything of a userEvents frame except its fills, which are read one by one. */
function readUserEventsRest(o: WireObject): Omit<WsUserEvents, 'fills'> {
  const funding = o.optionalObject('funding');
  const liquidation = o.optionalObject('liquidation');
  const otherKeys = Object.keys(o.raw).filter((key) => !USER_EVENT_KEYS.has(key));
  return {
    funding:
      funding === null
        ? null
        : {
            time: funding.uint('time'),
            coin: funding.nonEmptyString('coin'),
            usdc: funding.decimal('usdc'),
            szi: funding.decimal('szi'),
            fundingRate: funding.decimal('fundingRate'),
            nSamples: funding.optionalUint('nSamples'),
          },
    liquidation:
      liquidation === null
        ? null
        : {
            lid: liquidation.uint('lid'),
            liquidator: liquidation.address('liquidator'),
            liquidatedUser: liquidation.address('liquidated_user'),
            liquidatedNtlPos: liquidation.decimal('liquidated_ntl_pos'),
            liquidatedAccountValue: liquidation.decimal('liquidated_account_value'),
          },
    nonUserCancel: o.optionalArray('nonUserCancel', (item, path) => {
      const cancel = new WireObject(item, path);
      return { coin: cancel.nonEmptyString('coin'), oid: cancel.uint('oid') };
    }),
    other: otherKeys.length === 0 ? null : Object.fromEntries(otherKeys.map((key) => [key, o.raw[key]])),
  };
}

/**
 * Parses one websocket message `{channel, data}`. Trades and user fills are records of their own: a bad
 * one is an issue and the rest of the frame is kept. Channels not known here are kept as `unknown`.
 */
export function parseWsFrame(value: unknown, source: ParseSource): ParseResult<WsFrame> {
  const head = parseRecord(source, () => {
    const o = new WireObject(value, '');
    return { channel: o.nonEmptyString('channel'), data: o.required('data') };
  });
  if (!head.ok) return head;
  const { channel, data } = head.value;
  switch (channel) {
    case 'activeAssetCtx':
      return parseRecord(source, () => {
        const o = new WireObject(data, 'data');
        return { channel, data: { coin: o.nonEmptyString('coin'), ctx: readAssetCtx(o.object('ctx')) } };
      });
    case 'l2Book':
      return parseRecord(source, () => ({ channel, data: readL2Book(data, 'data') }));
    case 'candle':
      return parseRecord(source, () => ({ channel, data: readCandle(new WireObject(data, 'data')) }));
    case 'trades': {
      const trades = parseEach(data, source, 'data', readTrade);
      return trades.ok ? succeed({ channel, data: trades.value }, trades.issues) : trades;
    }
    case 'userEvents': {
      const rest = parseRecord(source, () => readUserEventsRest(new WireObject(data, 'data')));
      if (!rest.ok) return rest;
      const rawFills = (data as Record<string, unknown>)['fills'];
      if (rawFills === undefined || rawFills === null) return succeed({ channel, data: { fills: null, ...rest.value } });
      const fills = parseEach(rawFills, source, 'data.fills', readFill);
      return fills.ok ? succeed({ channel, data: { fills: fills.value, ...rest.value } }, fills.issues) : fills;
    }
    default:
      return succeed({ channel: 'unknown', wireChannel: channel, data });
  }
}
