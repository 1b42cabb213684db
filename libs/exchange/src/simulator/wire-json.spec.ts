import { describe, expect, it } from '@jest/globals';
import type { WireFill, WireOrder } from './wire-event.types.js';
import { MarketBook } from './market-book.js';
import { OrderDesk } from './order-desk.js';
import { SeededRandom } from './seeded-random.js';
import { HyperliquidSimulator } from './simulator.js';
import { fillJson, orderStatusJson } from './wire-json.js';

// An order as the simulator places it (keys in its order), partly filled.
const TSLA = new MarketBook(3).get('xyz:TSLA');
const ORDER: WireOrder = {
  ...new OrderDesk(new SeededRandom(1), { nowMs: 1_763_449_200_123 }).limitOrder(TSLA, 'B', 42_050, 20, 'Alo', '0x0123456789abcdef'),
  sz: '0.013',
};

const FILL: WireFill = {
  coin: 'BTC',
  px: '97001.0',
  sz: '0.00012',
  side: 'A',
  time: 1_763_449_200_456,
  startPosition: '-0.5',
  dir: 'Open Short',
  closedPnl: '0.0',
  hash: `0x${'ab'.repeat(32)}`,
  oid: 300_000_000_124,
  crossed: true,
  fee: '0.005238',
  tid: 100_000_000_004_321,
  feeToken: 'USDC',
  twapId: null,
};

describe('wire JSON', () => {
  it('writes order statuses as JSON.stringify writes their objects', () => {
    const trigger: WireOrder = {
      ...ORDER,
      triggerCondition: 'Price above 431.07',
      isTrigger: true,
      triggerPx: '431.07',
      reduceOnly: true,
      orderType: 'Stop Market',
      tif: null,
      cloid: null,
    };
    const nested: WireOrder = { ...ORDER, children: [trigger, ORDER] };
    for (const order of [ORDER, trigger, nested]) {
      for (const [hash, builder] of [
        [null, null],
        [`0x${'cd'.repeat(32)}`, { b: `0x${'12'.repeat(20)}`, f: 10 }],
      ] as const) {
        const time = '2026-11-18T07:00:00.123456789';
        const json = orderStatusJson(time, `0x${'ef'.repeat(20)}`, hash, builder, 'canceled', order);
        expect(json).toBe(JSON.stringify({ time, user: `0x${'ef'.repeat(20)}`, hash, builder, status: 'canceled', order }));
      }
    }
  });

  it('writes fills as JSON.stringify writes the [address, fill] pair, optional keys in their place', () => {
    const liquidation = { liquidatedUser: `0x${'77'.repeat(20)}`, markPx: '96990.0', method: 'market' };
    const fills: WireFill[] = [
      FILL,
      { ...FILL, cloid: '0xfeed', twapId: 1_000_003 },
      { ...FILL, liquidation, crossed: false },
      { ...FILL, cloid: '0xfeed', liquidation, builder: `0x${'99'.repeat(20)}`, builderFee: '0.0012' },
    ];
    for (const fill of fills) {
      // The order JSON.stringify follows is the object's own: the keys as trade-writer adds them.
      const { cloid, liquidation: liq, builder, builderFee, feeToken, twapId, ...head } = fill;
      const object = {
        ...head,
        ...(cloid === undefined ? {} : { cloid }),
        ...(liq === undefined ? {} : { liquidation: liq }),
        feeToken,
        twapId,
        ...(builder === undefined ? {} : { builder, builderFee }),
      };
      expect(fillJson('0xabc', fill)).toBe(JSON.stringify(['0xabc', object]));
    }
  });

  it('gives lines that are JSON needing no escape: parsed and written again, the same text', () => {
    const start = Date.UTC(2026, 10, 18, 7, 0);
    const simulator = new HyperliquidSimulator({
      seed: 4,
      startTimeMs: start,
      wallets: 40,
      markets: 12,
      eventsPerSecond: 2,
      bookOrders: 400,
    });
    const streams = new Set<string>();
    for (const line of simulator.run(start + 1_800_000)) {
      expect(JSON.stringify(JSON.parse(line.line))).toBe(line.line);
      streams.add(line.stream);
    }
    expect(streams.size).toBe(4);
  });
});
