import { parseEach, WireError, type ParseResult, type ParseSource } from '../parse/parse-result.js';
import { expectAddress, isAddress, isDecimalString, isPlainObject, WireObject } from '../parse/wire-reader.js';
import { nodeTimeToMs } from '../parse/node-time.js';
import type { BasicOpenOrder, HistoricalOrder, NodeOrderStatusEvent, Order, OrderBuilder } from './order.types.js';
import { readNodeEventHeader } from '../node/node-event-header.js';

/** The fields every order shape carries (frontend, basic open order, hl-node status). */
function readOrderCore(o: WireObject): Pick<Order, 'coin' | 'side' | 'limitPx' | 'sz' | 'oid' | 'timestamp'> {
  return {
    coin: o.nonEmptyString('coin'),
    side: o.side('side'),
    limitPx: o.decimal('limitPx'),
    sz: o.decimal('sz'),
    oid: o.uint('oid'),
    timestamp: o.uint('timestamp'),
  };
}

export function readOrder(value: unknown, path: string): Order {
  return wellFormedOrder(value) ?? readOrderChecked(value, path);
}

/** readOrder field by field: the one that names a bad field (exported for the fast path's test). */
export function readOrderChecked(value: unknown, path: string): Order {
  const o = new WireObject(value, path);
  return {
    ...readOrderCore(o),
    triggerCondition: o.string('triggerCondition'),
    isTrigger: o.boolean('isTrigger'),
    triggerPx: o.decimal('triggerPx'),
    children: o.array('children', readOrderChecked),
    isPositionTpsl: o.boolean('isPositionTpsl'),
    reduceOnly: o.boolean('reduceOnly'),
    orderType: o.nonEmptyString('orderType'),
    origSz: o.decimal('origSz'),
    tif: o.optionalString('tif'),
    cloid: o.optionalString('cloid'),
  };
}

export function readBasicOpenOrder(value: unknown, path: string): BasicOpenOrder {
  const o = new WireObject(value, path);
  return {
    ...readOrderCore(o),
    origSz: o.optionalDecimal('origSz'),
    reduceOnly: o.optionalBoolean('reduceOnly'),
    cloid: o.optionalString('cloid'),
  };
}

function readBuilder(o: WireObject): OrderBuilder | null {
  const value = o.raw['builder'];
  if (value === undefined || value === null) return null;
  if (typeof value === 'string') return { address: expectAddress(value, o.at('builder')), feeTenthsBp: null };
  const builder = o.optionalObject('builder');
  if (builder === null) throw new WireError(o.at('builder'), 'expected null, an address or {b, f}');
  return { address: builder.address('b'), feeTenthsBp: builder.optionalUint('f') };
}

export function readNodeOrderStatusEvent(value: unknown, path: string, index: number): NodeOrderStatusEvent {
  return wellFormedStatusEvent(value, index) ?? readNodeOrderStatusEventChecked(value, path, index);
}

/** readNodeOrderStatusEvent field by field (exported for the fast path's test). */
export function readNodeOrderStatusEventChecked(value: unknown, path: string, index: number): NodeOrderStatusEvent {
  const o = new WireObject(value, path);
  return {
    ...readNodeEventHeader(o, index),
    user: o.address('user'),
    hash: o.nullableHash('hash'),
    builder: readBuilder(o),
    status: o.nonEmptyString('status'),
    order: readOrderChecked(o.required('order'), o.at('order')),
  };
}

export function readHistoricalOrder(value: unknown, path: string): HistoricalOrder {
  const o = new WireObject(value, path);
  return {
    order: readOrder(o.required('order'), o.at('order')),
    status: o.nonEmptyString('status'),
    statusTimestamp: o.uint('statusTimestamp'),
  };
}

/** Info `frontendOpenOrders`. */
export function parseFrontendOpenOrders(value: unknown, source: ParseSource): ParseResult<Order[]> {
  return parseEach(value, source, '', readOrder);
}

/** Info `openOrders` (the short shape). */
export function parseOpenOrders(value: unknown, source: ParseSource): ParseResult<BasicOpenOrder[]> {
  return parseEach(value, source, '', readBasicOpenOrder);
}

/** Info `historicalOrders`. */
export function parseHistoricalOrders(value: unknown, source: ParseSource): ParseResult<HistoricalOrder[]> {
  return parseEach(value, source, '', readHistoricalOrder);
}

/*
 * The fast path of the two readers above, for the hl-node feed's millions of order statuses: the valid
 * case checked field by field without a reader object or a path per field. Anything it does not accept
 * as is (a missing, null or odd field) returns null, and the generic reader reads the record again and
 * names what is wrong; what both accept, they read to the same value.
 */

const uint = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
const text = (v: unknown): v is string => typeof v === 'string';
const optionalText = (v: unknown): v is string | null | undefined => v === undefined || v === null || typeof v === 'string';

function wellFormedOrder(value: unknown): Order | null {
  if (!isPlainObject(value)) return null;
  const {
    coin,
    side,
    limitPx,
    sz,
    oid,
    timestamp,
    triggerCondition,
    isTrigger,
    triggerPx,
    children,
    isPositionTpsl,
    reduceOnly,
    orderType,
    origSz,
    tif,
    cloid,
  } = value;
  if (
    !text(coin) ||
    coin === '' ||
    (side !== 'A' && side !== 'B') ||
    !isDecimalString(limitPx) ||
    !isDecimalString(sz) ||
    !uint(oid) ||
    !uint(timestamp)
  )
    return null;
  if (!text(triggerCondition) || typeof isTrigger !== 'boolean' || !isDecimalString(triggerPx) || !Array.isArray(children)) return null;
  if (
    typeof isPositionTpsl !== 'boolean' ||
    typeof reduceOnly !== 'boolean' ||
    !text(orderType) ||
    orderType === '' ||
    !isDecimalString(origSz)
  )
    return null;
  if (!optionalText(tif) || !optionalText(cloid)) return null;
  const read: Order[] = [];
  for (const child of children) {
    const order = wellFormedOrder(child);
    if (order === null) return null;
    read.push(order);
  }
  return {
    coin,
    side,
    limitPx,
    sz,
    oid,
    timestamp,
    triggerCondition,
    isTrigger,
    triggerPx,
    children: read,
    isPositionTpsl,
    reduceOnly,
    orderType,
    origSz,
    tif: tif ?? null,
    cloid: cloid ?? null,
  };
}

function wellFormedStatusEvent(value: unknown, index: number): NodeOrderStatusEvent | null {
  if (!isPlainObject(value)) return null;
  const { time, user, hash, builder, status, order } = value;
  if (
    !text(time) ||
    !isAddress(user) ||
    hash === undefined ||
    (hash !== null && !(text(hash) && HASH.test(hash))) ||
    !text(status) ||
    status === ''
  )
    return null;
  const timeMs = nodeTimeToMs(time);
  if (timeMs === null) return null;
  let readBuilder: OrderBuilder | null;
  if (builder === undefined || builder === null) readBuilder = null;
  else if (isPlainObject(builder) && isAddress(builder['b']) && (builder['f'] === undefined || builder['f'] === null || uint(builder['f'])))
    readBuilder = { address: builder['b'], feeTenthsBp: (builder['f'] as number | null | undefined) ?? null };
  else return null;
  const read = wellFormedOrder(order);
  if (read === null) return null;
  return { index, time, timeMs, user, hash, builder: readBuilder, status, order: read };
}

const HASH = /^0x[0-9a-fA-F]{64}$/;
