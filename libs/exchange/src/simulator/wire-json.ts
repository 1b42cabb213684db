import type { WireBuilder, WireFill, WireOrder, WireOrderStatus } from './wire-event.types.js';

/**
 * The JSON of the two events most lines are made of (order statuses and fills), written out in the key
 * order JSON.stringify gives their objects: on Node 20, JSON.stringify was the simulator's largest cost.
 * Every string in them is made by the simulator (digits, hex, catalogue coins, fixed words), so none
 * needs escaping; wire-json.spec holds these to JSON.stringify.
 */

const text = (value: string | null) => (value === null ? 'null' : `"${value}"`);

export function orderJson(o: WireOrder): string {
  return (
    `{"coin":"${o.coin}","side":"${o.side}","limitPx":"${o.limitPx}","sz":"${o.sz}","oid":${o.oid},"timestamp":${o.timestamp},` +
    `"triggerCondition":"${o.triggerCondition}","isTrigger":${o.isTrigger},"triggerPx":"${o.triggerPx}","children":[${o.children.map(orderJson).join(',')}],` +
    `"isPositionTpsl":${o.isPositionTpsl},"reduceOnly":${o.reduceOnly},"orderType":"${o.orderType}","origSz":"${o.origSz}","tif":${text(o.tif)},"cloid":${text(o.cloid)}}`
  );
}

/** A `node_order_statuses_by_block` event: { time, user, hash, builder, status, order }. */
export function orderStatusJson(
  time: string,
  user: string,
  hash: string | null,
  builder: WireBuilder | null,
  status: WireOrderStatus,
  order: WireOrder,
): string {
  const builderJson = builder === null ? 'null' : `{"b":"${builder.b}","f":${builder.f}}`;
  return `{"time":"${time}","user":"${user}","hash":${text(hash)},"builder":${builderJson},"status":"${status}","order":${orderJson(order)}}`;
}

/** A `node_fills_by_block` event: the [address, fill] pair. */
export function fillJson(address: string, f: WireFill): string {
  let json =
    `["${address}",{"coin":"${f.coin}","px":"${f.px}","sz":"${f.sz}","side":"${f.side}","time":${f.time},"startPosition":"${f.startPosition}",` +
    `"dir":"${f.dir}","closedPnl":"${f.closedPnl}","hash":"${f.hash}","oid":${f.oid},"crossed":${f.crossed},"fee":"${f.fee}","tid":${f.tid}`;
  if (f.cloid !== undefined) json += `,"cloid":"${f.cloid}"`;
  if (f.liquidation !== undefined) {
    const l = f.liquidation;
    json += `,"liquidation":{"liquidatedUser":"${l.liquidatedUser}","markPx":"${l.markPx}","method":"${l.method}"}`;
  }
  json += `,"feeToken":"${f.feeToken}","twapId":${f.twapId}`;
  if (f.builder !== undefined) json += `,"builder":"${f.builder}"`;
  if (f.builderFee !== undefined) json += `,"builderFee":"${f.builderFee}"`;
  return `${json}}]`;
}
