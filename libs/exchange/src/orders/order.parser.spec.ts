import { describe, expect, it } from '@jest/globals';
import { fixtureJson } from '#testing';
import { parseBlock } from '../node/node-block.parser.js';
import { simulate } from '../simulator/simulator.js';
import {
  parseFrontendOpenOrders,
  parseHistoricalOrders,
  parseOpenOrders,
  readNodeOrderStatusEvent,
  readNodeOrderStatusEventChecked,
} from './order.parser.js';

describe('orders', () => {
  it('read hl-node order statuses open, filled and perpMarginRejected', () => {
    const wire = fixtureJson('node_order_statuses_by_block_excerpt.json');
    const result = parseBlock('node_order_statuses_by_block', wire, { file: 'excerpt', line: 1 });
    if (!result.ok) throw new Error(result.error.message);
    expect(result.issues).toEqual([]);
    expect(result.value.blockNumber).toBe(777324092);
    const [open, filled, rejected] = result.value.events;
    expect(result.value.events.map((event) => [event.status, event.order.coin, event.hash === null])).toEqual([
      ['open', 'W', false],
      ['filled', 'ENA', true],
      ['perpMarginRejected', 'RENDER', true],
    ]);
    expect(open).toMatchObject({
      index: 0,
      time: '2025-10-27T23:49:22.031892297',
      timeMs: 1761608962031,
      user: '0xf27ebb91ea420f73b59b205ac7e0b77a90ec8f3c',
      builder: null,
      order: {
        side: 'A',
        limitPx: '0.07326',
        sz: '274397.5',
        origSz: '274397.5',
        oid: 214381798682,
        tif: 'Alo',
        orderType: 'Limit',
        children: [],
        triggerPx: '0.0',
      },
    });
    expect([filled!.order.sz, filled!.order.origSz]).toEqual(['0.0', '1048.0']); // a filled order has no size left
    expect(rejected!.order.oid).toBe(214381798685);
  });

  it('read a builder given as {b, f} or as an address', () => {
    const block = fixtureJson('node_order_statuses_by_block_excerpt.json') as { events: Record<string, unknown>[] };
    const builder = '0x1cc34f6af34653c515b47a83e1de70ba9b0cda1f';
    const events = [
      { ...block.events[0], builder: { b: builder, f: 10 } },
      { ...block.events[1], builder },
    ];
    const result = parseBlock('node_order_statuses_by_block', { ...block, events }, {});
    expect(result.ok && result.value.events.map((event) => event.builder)).toEqual([
      { address: builder, feeTenthsBp: 10 },
      { address: builder, feeTenthsBp: null },
    ]);
  });

  it('read frontendOpenOrders with TP/SL children and null tif on triggers', () => {
    const result = parseFrontendOpenOrders(fixtureJson('info_frontendOpenOrders.json'), { file: 'info_frontendOpenOrders.json' });
    if (!result.ok) throw new Error(result.error.message);
    expect(result.issues).toEqual([]);
    expect(result.value.map((order) => [order.oid, order.orderType, order.tif, order.children.length])).toEqual([
      [3184595907, 'Take Profit Market', null, 0],
      [3184595906, 'Stop Market', null, 0],
      [3184595905, 'Limit', 'Gtc', 2],
    ]);
    expect(result.value[2]!.children.map((child) => [child.triggerCondition, child.triggerPx])).toEqual([
      ['Price below 9.995', '9.995'],
      ['Price above 10.004', '10.004'],
    ]);
    expect(result.value[0]!.cloid).toBeNull();
  });

  it('read the 196 short openOrders', () => {
    const result = parseOpenOrders(fixtureJson('info_openOrders.json'), {});
    if (!result.ok) throw new Error(result.error.message);
    expect(result.issues).toEqual([]);
    expect(result.value).toHaveLength(196);
    expect(result.value[0]).toEqual({
      coin: 'MATIC',
      side: 'B',
      limitPx: '1.0357',
      sz: '208.7',
      oid: 62269971,
      timestamp: 1679940217356,
      origSz: null,
      reduceOnly: null,
      cloid: null,
    });
  });

  it('read historicalOrders with their statuses', () => {
    const result = parseHistoricalOrders(fixtureJson('info_historicalOrders.json'), {});
    if (!result.ok) throw new Error(result.error.message);
    expect(result.issues).toEqual([]);
    expect(result.value.map((item) => item.status)).toEqual([
      'iocCancelRejected',
      'iocCancelRejected',
      'iocCancelRejected',
      'canceled',
      'canceled',
    ]);
    expect(result.value[3]).toMatchObject({
      statusTimestamp: 1755863118217,
      order: { coin: 'DYDX', limitPx: '0.62613', tif: 'Alo', cloid: null },
    });
  });

  it('reads a well-formed status event on its fast path to exactly what the field-by-field reader reads', () => {
    const start = Date.UTC(2026, 5, 28, 8, 0);
    const lines = [...simulate({ seed: 9, startTimeMs: start, wallets: 40, markets: 8, eventsPerSecond: 2 }, start + 10 * 60_000)];
    const events = lines.filter((l) => l.stream === 'node_order_statuses_by_block').flatMap((l) => JSON.parse(l.line).events as unknown[]);
    const fixture = (fixtureJson('node_order_statuses_by_block_excerpt.json') as { events: unknown[] }).events;
    // A builder written as a bare address is left to the checked reader; it must read the same.
    const bareBuilder = { ...(fixture[0] as object), builder: '0x1234567890abcdef1234567890abcdef12345678' };
    const all = [...events, ...fixture, bareBuilder];
    expect(events.length).toBeGreaterThan(1_000);
    for (const [i, event] of all.entries())
      expect(readNodeOrderStatusEvent(event, `events[${i}]`, i)).toEqual(readNodeOrderStatusEventChecked(event, `events[${i}]`, i));
  });
});
