import { parseEach, WireError, type ParseResult, type ParseSource } from '../parse/parse-result.js';
import { expectAddress, WireObject } from '../parse/wire-reader.js';
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
  const o = new WireObject(value, path);
  return {
    ...readOrderCore(o),
    triggerCondition: o.string('triggerCondition'),
    isTrigger: o.boolean('isTrigger'),
    triggerPx: o.decimal('triggerPx'),
    children: o.array('children', readOrder),
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
  const o = new WireObject(value, path);
  return {
    ...readNodeEventHeader(o, index),
    user: o.address('user'),
    hash: o.nullableHash('hash'),
    builder: readBuilder(o),
    status: o.nonEmptyString('status'),
    order: readOrder(o.required('order'), o.at('order')),
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
