import { describe, expect, it } from '@jest/globals';
import { createHash } from 'node:crypto';
import type { NodeBlock } from '#exchange';
import {
  address as A,
  ALERT_T0 as T0,
  alertFillsBlock as fills,
  alertNodeTime as nodeTime,
  alertRule as rule,
  type AlertTestFill as F,
} from '#testing';
import type { AlertRule } from '../alert.types.js';
import { matchBatch, matchInputFromBlocks, MAX_FILLS_PER_DELIVERY, RuleIndex } from './index.js';

// The fill rules (position_activity, twap_execution, liquidation, large_market_order): real-format
// hl-node block lines (#testing's alert blocks), parsed by the real parser, matched against rules;
// every expected value is written out here by hand.

const sha = (ruleId: number, identity: string) => createHash('sha256').update(`${ruleId}|${identity}`).digest('hex');
const match = (rules: AlertRule[], blocks: NodeBlock[]) => matchBatch(new RuleIndex(rules), matchInputFromBlocks(blocks, new Map()));

describe('position_activity', () => {
  it("delivers a tracked wallet's perp fills per market, exactly as recorded, with a stable id", () => {
    const r = rule('position_activity', [A(1)], { coin: ['BTC'] });
    const block = fills(100, [
      [A(1).toUpperCase().replace('0X', '0x'), { coin: 'BTC', px: '97000.5', sz: '0.1', tid: 11, time: T0 + 2 }],
      [A(1), { coin: 'BTC', px: '97001', sz: '0.2', tid: 10, time: T0 + 1, liquidatedUser: A(1) }],
      [A(1), { coin: 'ETH', px: '3000', sz: '1', tid: 12 }],
      [A(2), { coin: 'BTC', px: '97000', sz: '1', tid: 13 }],
      [A(1), { coin: 'BTC', px: '97000', sz: '1', tid: 14, twapId: 55 }],
    ]);
    const out = match([r], [block]);
    expect(out).toHaveLength(1);
    const f = (tid: number, px: string, sz: string, time: number, liquidation?: object) => ({
      id: `${tid}:${A(1)}`,
      coin: 'BTC',
      px,
      sz,
      side: 'B',
      time,
      oid: tid,
      tid,
      hash: `0x${tid.toString(16).padStart(64, '0')}`,
      fullCoinName: 'BTC',
      fillType: 'perp',
      dir: 'Open Long',
      startPosition: '0',
      closedPnl: '0.0',
      fee: '0.01',
      feeToken: 'USDC',
      builder: null,
      builderFee: null,
      crossed: true,
      cloid: null,
      blockNumber: 100,
      blockTime: nodeTime(T0),
      localTime: nodeTime(T0 + 5),
      ...(liquidation ? { liquidation } : {}),
    });
    expect(out[0]).toEqual({
      deliveryId: sha(r.id, `position_activity|${A(1)}|BTC|10,11`),
      ruleId: r.id,
      consumerId: 7,
      webhookEndpointId: 9,
      eventType: 'position_activity',
      occurredAtMs: T0 + 2,
      data: {
        address: A(1),
        coin: 'BTC',
        fillCount: 2,
        liquidationCount: 1,
        firstFillAt: T0 + 1,
        lastFillAt: T0 + 2,
        fills: [
          f(10, '97001', '0.2', T0 + 1, { liquidatedUser: A(1), markPx: '97001', method: 'market' }),
          f(11, '97000.5', '0.1', T0 + 2),
        ],
      },
    });
  });

  it('counts as liquidations only the fills where the tracked wallet itself was liquidated, not those where it was the liquidator', () => {
    const r = rule('position_activity', [A(1), A(2)]);
    const out = match(
      [r],
      [
        fills(110, [
          // A(1) liquidated (backstop on the other side is A(2)), then A(1) takes over A(3)'s position as liquidator.
          [A(1), { coin: 'ETH', px: '3000', sz: '1', tid: 20, liquidatedUser: A(1) }],
          [A(1), { coin: 'ETH', px: '3000', sz: '2', tid: 21, liquidatedUser: A(3) }],
          [A(1), { coin: 'ETH', px: '3001', sz: '1', tid: 22 }],
          [A(2), { coin: 'ETH', px: '3000', sz: '1', tid: 20, liquidatedUser: A(1) }],
        ]),
      ],
    );
    expect(out.map((d) => [d.data.address, d.data.fillCount, d.data.liquidationCount])).toEqual([
      [A(1), 3, 1],
      [A(2), 1, 0],
    ]);
  });

  it('splits a group at 100 fills: 100 -> one delivery, 101 -> 100 + 1', () => {
    const r = rule('position_activity', [A(1)]);
    const many = (n: number, base: number) =>
      fills(
        200 + base,
        Array.from({ length: n }, (_, i) => [A(1), { coin: 'SOL', px: '150', sz: '1', tid: base + i }] as [string, F]),
      );
    expect(match([r], [many(100, 1000)]).map((d) => d.data.fillCount)).toEqual([100]);
    expect(MAX_FILLS_PER_DELIVERY).toBe(100);
    const split = match([r], [many(101, 2000)]);
    expect(split.map((d) => d.data.fillCount)).toEqual([100, 1]);
    expect(split[1]!.deliveryId).toBe(sha(r.id, `position_activity|${A(1)}|SOL|2100`));
  });

  it("leaves spot fills out, keeps HIP-3 markets, and matches one wallet among a rule's 1000 addresses", () => {
    const addresses = Array.from({ length: 1000 }, (_, i) => A(i + 1));
    const r = rule('position_activity', addresses);
    const out = match(
      [r],
      [
        fills(300, [
          [A(1000), { coin: '@107', px: '1', sz: '1', tid: 1 }],
          [A(1000), { coin: 'PURR/USDC', px: '1', sz: '1', tid: 2 }],
          [A(1000), { coin: 'xyz:TSLA', px: '400', sz: '1', tid: 3 }],
          [A(1001), { coin: 'BTC', px: '1', sz: '1', tid: 4 }],
        ]),
      ],
    );
    expect(out.map((d) => [d.data.address, d.data.coin])).toEqual([[A(1000), 'xyz:TSLA']]);
  });

  it('sees fills at or after its creation only', () => {
    const r = rule('position_activity', [A(1)], {}, T0);
    const out = match(
      [r],
      [
        fills(400, [
          [A(1), { coin: 'BTC', px: '1', sz: '1', tid: 1, time: T0 - 1 }],
          [A(1), { coin: 'BTC', px: '1', sz: '1', tid: 2, time: T0 }],
        ]),
      ],
    );
    expect(out.map((d) => (d.data.fills as Array<{ tid: number }>).map((f) => f.tid))).toEqual([[2]]);
  });

  it('gives each rule tracking a wallet its own delivery; a rule created inside the block takes only the later fills', () => {
    const all = rule('position_activity', [A(1), A(2)]);
    const eth = rule('position_activity', [A(1)], { coin: ['ETH'] });
    const late = rule('position_activity', [A(1)], {}, T0 + 1);
    const out = match(
      [all, eth, late],
      [
        fills(450, [
          [A(1), { coin: 'BTC', px: '1', sz: '1', tid: 1, time: T0 }],
          [A(1), { coin: 'BTC', px: '2', sz: '1', tid: 2, time: T0 + 1 }],
          [A(1), { coin: 'ETH', px: '3', sz: '1', tid: 3, time: T0 }],
        ]),
      ],
    );
    const tids = (d: { data: Record<string, unknown> }) => (d.data.fills as Array<{ tid: number }>).map((f) => f.tid);
    expect(out.map((d) => [d.ruleId, d.data.coin, tids(d), d.deliveryId])).toEqual([
      [all.id, 'BTC', [1, 2], sha(all.id, `position_activity|${A(1)}|BTC|1,2`)],
      [late.id, 'BTC', [2], sha(late.id, `position_activity|${A(1)}|BTC|2`)],
      [all.id, 'ETH', [3], sha(all.id, `position_activity|${A(1)}|ETH|3`)],
      [eth.id, 'ETH', [3], sha(eth.id, `position_activity|${A(1)}|ETH|3`)],
    ]);
  });

  it('gives the same deliveries whether the blocks come in one batch or two', () => {
    const r = rule('position_activity', [A(1)]);
    const b1 = fills(500, [[A(1), { coin: 'BTC', px: '1', sz: '1', tid: 1 }]]);
    const b2 = fills(501, [[A(1), { coin: 'BTC', px: '2', sz: '1', tid: 2 }]]);
    const together = match([r], [b1, b2]).map((d) => d.deliveryId);
    const apart = [...match([r], [b1]), ...match([r], [b2])].map((d) => d.deliveryId);
    expect(together).toHaveLength(2);
    expect(apart).toEqual(together);
  });
});

describe('twap_execution', () => {
  it("delivers each slice (simultaneous slices together) of a tracked wallet's TWAP", () => {
    const r = rule('twap_execution', [A(1)], { coin: ['HYPE'] });
    const out = match(
      [r],
      [
        fills(600, [
          [A(1), { coin: 'HYPE', px: '40', sz: '1', tid: 1, twapId: 77, time: T0 }],
          [A(1), { coin: 'HYPE', px: '40.1', sz: '2', tid: 2, twapId: 77, time: T0 }],
          [A(1), { coin: 'HYPE', px: '40.2', sz: '3', tid: 3, twapId: 77, time: T0 + 30_000 }],
          [A(1), { coin: 'HYPE', px: '40', sz: '1', tid: 4 }],
          [A(1), { coin: 'BTC', px: '1', sz: '1', tid: 5, twapId: 78 }],
        ]),
      ],
    );
    expect(out.map((d) => d.data)).toEqual([
      {
        address: A(1),
        coin: 'HYPE',
        twapId: 77,
        fillCount: 2,
        firstFillAt: T0,
        lastFillAt: T0,
        fills: [
          { id: `1:${A(1)}`, twapId: 77, px: '40', sz: '1', side: 'B', time: T0 },
          { id: `2:${A(1)}`, twapId: 77, px: '40.1', sz: '2', side: 'B', time: T0 },
        ],
      },
      {
        address: A(1),
        coin: 'HYPE',
        twapId: 77,
        fillCount: 1,
        firstFillAt: T0 + 30_000,
        lastFillAt: T0 + 30_000,
        fills: [{ id: `3:${A(1)}`, twapId: 77, px: '40.2', sz: '3', side: 'B', time: T0 + 30_000 }],
      },
    ]);
  });
});

describe('liquidation', () => {
  it('delivers the liquidated side only, grouped by hash, wallet and market, with exact sums', () => {
    const r = rule('liquidation');
    const hash = `0x${'11'.repeat(32)}`;
    const out = match(
      [r],
      [
        fills(900, [
          [
            A(5),
            { coin: 'ETH', px: '0.1', sz: '1', tid: 1, hash, startPosition: '-3', side: 'B', dir: 'Close Short', liquidatedUser: A(5) },
          ],
          [
            A(5),
            { coin: 'ETH', px: '0.2', sz: '1', tid: 2, hash, startPosition: '-2', side: 'B', dir: 'Close Short', liquidatedUser: A(5) },
          ],
          [A(6), { coin: 'ETH', px: '0.1', sz: '1', tid: 1, hash, side: 'A', liquidatedUser: A(5) }],
          [
            A(5),
            { coin: 'BTC', px: '3', sz: '0.5', tid: 3, hash, startPosition: '0.5', side: 'A', dir: 'Close Long', liquidatedUser: A(5) },
          ],
        ]),
      ],
    );
    expect(out).toEqual([
      {
        deliveryId: sha(r.id, `liquidation|${hash}|${A(5)}:BTC,${A(5)}:ETH`),
        ruleId: r.id,
        consumerId: 7,
        webhookEndpointId: 9,
        eventType: 'liquidation',
        occurredAtMs: T0,
        data: {
          liquidations: [
            {
              address: A(5),
              market: 'BTC',
              side: 'long',
              size: '0.5',
              usdNotional: '1.5',
              executionPrice: '3',
              fills: [{ id: `3:${A(5)}`, px: '3', sz: '0.5', startPosition: '0.5' }],
              sourceEventId: hash,
              eventTime: T0,
            },
            {
              address: A(5),
              market: 'ETH',
              side: 'short',
              size: '2',
              usdNotional: '0.3',
              executionPrice: '0.15',
              fills: [
                { id: `1:${A(5)}`, px: '0.1', sz: '1', startPosition: '-3' },
                { id: `2:${A(5)}`, px: '0.2', sz: '1', startPosition: '-2' },
              ],
              sourceEventId: hash,
              eventTime: T0,
            },
          ],
        },
      },
    ]);
  });

  it('compares thresholdUsd exactly: 0.1 + 0.2 reaches 0.3, not 0.30000000001', () => {
    const block = fills(901, [
      [A(5), { coin: 'ETH', px: '0.1', sz: '1', tid: 1, startPosition: '-2', hash: `0x${'22'.repeat(32)}`, liquidatedUser: A(5) }],
      [A(5), { coin: 'ETH', px: '0.2', sz: '1', tid: 2, startPosition: '-1', hash: `0x${'22'.repeat(32)}`, liquidatedUser: A(5) }],
    ]);
    expect(match([rule('liquidation', [], { thresholdUsd: '0.3' })], [block])).toHaveLength(1);
    expect(match([rule('liquidation', [], { thresholdUsd: '0.30000000001' })], [block])).toHaveLength(0);
    expect(match([rule('liquidation', [], { side: 'long' })], [block])).toHaveLength(0);
    expect(match([rule('liquidation', [A(5)], { side: 'short', markets: ['BTC', 'ETH'] })], [block])).toHaveLength(1);
    expect(match([rule('liquidation', [A(6)])], [block])).toHaveLength(0);
  });
});

describe('large_market_order', () => {
  const block = () =>
    fills(1000, [
      [A(7), { coin: 'BTC', px: '100000', sz: '0.3', tid: 1, oid: 555, side: 'B' }],
      [A(7), { coin: 'BTC', px: '100000', sz: '0.2', tid: 2, oid: 555, side: 'B' }],
      [A(8), { coin: 'BTC', px: '100000', sz: '0.5', tid: 3, oid: 556, side: 'A', crossed: false }],
      [A(9), { coin: 'ETH', px: '2500', sz: '19.9999999996', tid: 4, oid: 557, side: 'A', dir: 'Close Long' }],
    ]);

  it('aggregates taker fills per wallet, market and order; notional = sum of size x price, average = notional / size', () => {
    const r = rule('large_market_order', [], { thresholdUsd: '49999.9999995', direction: 'both' });
    const out = match([r], [block()]);
    expect(out).toEqual([
      {
        deliveryId: sha(r.id, `large_market_order|1000|${A(7)}:BTC:555`),
        ruleId: r.id,
        consumerId: 7,
        webhookEndpointId: 9,
        eventType: 'large_market_order',
        occurredAtMs: T0,
        data: {
          orders: [
            {
              address: A(7),
              market: 'BTC',
              direction: 'buy',
              positionEffect: 'increase',
              orderId: 555,
              aggregatedSize: '0.5',
              usdNotional: '50000',
              averageExecutionPrice: '100000',
              fills: [
                { id: `1:${A(7)}`, px: '100000', sz: '0.3' },
                { id: `2:${A(7)}`, px: '100000', sz: '0.2' },
              ],
              eventTime: T0,
            },
          ],
        },
      },
    ]);
  });

  it('fires only above the threshold: an order of exactly the threshold does not; filters direction and markets', () => {
    // The ETH order is 49999.999999 USD, the BTC order 50000.
    expect(
      match([rule('large_market_order', [], { thresholdUsd: '49999.9999989999' })], [block()]).flatMap((d) =>
        (d.data.orders as Array<{ orderId: number }>).map((o) => o.orderId),
      ),
    ).toEqual([555, 557]);
    expect(
      match([rule('large_market_order', [], { thresholdUsd: '49999.999999' })], [block()]).flatMap((d) =>
        (d.data.orders as Array<{ orderId: number }>).map((o) => o.orderId),
      ),
    ).toEqual([555]);
    expect(match([rule('large_market_order', [], { thresholdUsd: '50000' })], [block()])).toEqual([]);
    expect(
      match([rule('large_market_order', [], { thresholdUsd: '40000', direction: 'sell' })], [block()]).flatMap((d) =>
        (d.data.orders as Array<{ orderId: number; positionEffect: string }>).map((o) => [o.orderId, o.positionEffect]),
      ),
    ).toEqual([[557, 'decrease']]);
    const hundred = [...Array.from({ length: 99 }, (_, i) => `M${i}`), 'ETH'];
    expect(
      match([rule('large_market_order', [], { thresholdUsd: '40000', markets: hundred })], [block()]).flatMap((d) =>
        (d.data.orders as Array<{ market: string }>).map((o) => o.market),
      ),
    ).toEqual(['ETH']);
  });
});
