import { describe, expect, it } from '@jest/globals';
import { createHash } from 'node:crypto';
import { parseBlockLine, type NodeBlock } from '#exchange';
import type { AlertRule, EventType, RuleFilters } from '../alert.types.js';
import { matchBatch, matchInputFromBlocks, matchStateUpdate, MAX_FILLS_PER_DELIVERY, RuleIndex, type PricePoint } from './index.js';

// Real-format hl-node block lines, parsed by the real parser, matched against rules; every expected
// value is written out here by hand.

const T0 = Date.UTC(2026, 10, 25, 12, 0, 0);
const A = (n: number) => `0x${n.toString(16).padStart(40, '0')}`;
const sha = (ruleId: number, identity: string) => createHash('sha256').update(`${ruleId}|${identity}`).digest('hex');
const nodeTime = (ms: number) => new Date(ms).toISOString().replace('Z', '000000').slice(0, 29);

function parse(stream: string, block: object): NodeBlock {
  const r = parseBlockLine(stream, JSON.stringify(block), {});
  if (!r.ok) throw new Error(JSON.stringify(r.error));
  return r.value as NodeBlock;
}

interface F {
  coin: string;
  px: string;
  sz: string;
  side?: 'A' | 'B';
  time?: number;
  tid: number;
  oid?: number;
  startPosition?: string;
  dir?: string;
  hash?: string;
  crossed?: boolean;
  twapId?: number | null;
  liquidatedUser?: string;
}
function wire(f: F) {
  return {
    coin: f.coin,
    px: f.px,
    sz: f.sz,
    side: f.side ?? 'B',
    time: f.time ?? T0,
    startPosition: f.startPosition ?? '0',
    dir: f.dir ?? 'Open Long',
    closedPnl: '0.0',
    hash: f.hash ?? `0x${f.tid.toString(16).padStart(64, '0')}`,
    oid: f.oid ?? f.tid,
    crossed: f.crossed ?? true,
    fee: '0.01',
    tid: f.tid,
    cloid: null,
    feeToken: 'USDC',
    twapId: f.twapId ?? null,
    ...(f.liquidatedUser ? { liquidation: { liquidatedUser: f.liquidatedUser, markPx: f.px, method: 'market' } } : {}),
  };
}
const fills = (block: number, events: Array<[string, F]>, time = T0) =>
  parse('node_fills_by_block', {
    local_time: nodeTime(time + 5),
    block_time: nodeTime(time),
    block_number: block,
    events: events.map(([a, f]) => [a, wire(f)]),
  });
const ledger = (block: number, events: Array<{ users: string[]; delta: object; hash?: string; time?: number }>) =>
  parse('misc_events_by_block', {
    local_time: nodeTime(T0),
    block_time: nodeTime(T0),
    block_number: block,
    events: events.map((e) => ({
      time: nodeTime(e.time ?? T0),
      hash: e.hash ?? `0x${'ab'.repeat(32)}`,
      inner: { LedgerUpdate: { users: e.users, delta: e.delta } },
    })),
  });
const twaps = (block: number, events: Array<{ twapId: number; status: unknown; coin?: string; user?: string; time?: number }>) =>
  parse('node_twap_statuses_by_block', {
    local_time: nodeTime(T0),
    block_time: nodeTime(T0),
    block_number: block,
    events: events.map((e) => ({
      time: nodeTime(e.time ?? T0),
      twap_id: e.twapId,
      state: {
        coin: e.coin ?? 'HYPE',
        user: e.user ?? A(1),
        side: 'A',
        sz: '108.36',
        executedSz: '10.0',
        executedNtl: '400.5',
        minutes: 10,
        reduceOnly: false,
        randomize: true,
        timestamp: T0 - 60_000,
      },
      status: e.status,
    })),
  });

let nextRule = 1;
function rule(eventType: EventType, addresses: string[] = [], filters: RuleFilters = {}, createdAtMs = T0 - 1000): AlertRule {
  return { id: nextRule++, consumerId: 7, webhookEndpointId: 9, eventType, addresses, filters, createdAtMs };
}
const match = (rules: AlertRule[], blocks: NodeBlock[], previous: Map<string, PricePoint> = new Map()) =>
  matchBatch(new RuleIndex(rules), matchInputFromBlocks(blocks, previous));

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

describe('twap_execution and twap_lifecycle', () => {
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

  it('delivers one status change per event, source errors as error with their message, spot TWAPs never', () => {
    const r = rule('twap_lifecycle');
    const out = match(
      [r],
      [
        twaps(700, [
          { twapId: 1, status: 'activated' },
          { twapId: 2, status: { error: 'Insufficient margin' } },
          { twapId: 3, status: 'finished', coin: '@107' },
          { twapId: 4, status: 'terminated', user: A(2) },
        ]),
      ],
    );
    expect(out.map((d) => [d.data.twapId, d.data.status, d.data.description, d.data.address])).toEqual([
      [1, 'activated', null, A(1)],
      [2, 'error', 'Insufficient margin', A(1)],
      [4, 'terminated', null, A(2)],
    ]);
    expect(out[0]!.data).toEqual({
      address: A(1),
      coin: 'HYPE',
      twapId: 1,
      status: 'activated',
      description: null,
      side: 'A',
      size: '108.36',
      executedSize: '10.0',
      executedNotional: '400.5',
      minutes: 10,
      reduceOnly: false,
      randomize: true,
      timestamp: T0,
    });
    expect(out[0]!.deliveryId).toBe(sha(r.id, `twap_lifecycle|1|activated|${T0}`));
    // AND across addresses and coins: A(2)'s HYPE TWAP passes an A(2) rule on HYPE, not one on BTC.
    expect(
      match(
        [rule('twap_lifecycle', [A(2)], { coin: ['BTC', 'HYPE'] }), rule('twap_lifecycle', [A(2)], { coin: ['BTC'] })],
        [twaps(701, [{ twapId: 4, status: 'terminated', user: A(2) }])],
      ).map((d) => d.ruleId),
    ).toHaveLength(1);
  });
});

describe('ledger_update', () => {
  const block = () =>
    ledger(800, [
      { users: [A(1)], delta: { type: 'deposit', usdc: '1000.0' } },
      { users: [A(2), A(3), A(2)], delta: { type: 'withdraw', usdc: '999.999999', nonce: 1, fee: '1.0' }, hash: `0x${'cd'.repeat(32)}` },
      { users: [A(4)], delta: { type: 'accountClassTransfer', usdc: '5000', toPerp: true } },
    ]);

  it('delivers one per affected wallet with the exact payload; transfers are not deposits', () => {
    const r = rule('ledger_update');
    const out = match([r], [block()]);
    expect(out.map((d) => [d.data.address, d.data.type, d.data.amount])).toEqual([
      [A(1), 'deposit', '1000.0'],
      [A(2), 'withdraw', '999.999999'],
      [A(3), 'withdraw', '999.999999'],
    ]);
    expect(out[1]).toMatchObject({
      deliveryId: sha(r.id, `ledger_update|0x${'cd'.repeat(32)}|${A(2)}`),
      data: {
        address: A(2),
        type: 'withdraw',
        amount: '999.999999',
        time: new Date(T0).toISOString(),
        hash: `0x${'cd'.repeat(32)}`,
        users: [A(2), A(3), A(2)],
        delta: { type: 'withdraw', usdc: '999.999999' },
      },
    });
  });

  it('applies types and every amount operator exactly at the edges', () => {
    const cases: Array<[RuleFilters, string[]]> = [
      [{ types: ['deposit'] }, [A(1)]],
      [{ amount: { gte: '1000' } }, [A(1)]],
      [{ amount: { gt: '1000' } }, []],
      [{ amount: { gt: '999.9999989' } }, [A(1), A(2), A(3)]],
      [{ amount: { lt: '1000' } }, [A(2), A(3)]],
      [{ amount: { lte: '999.999999' } }, [A(2), A(3)]],
      [{ amount: { eq: '1000.000' } }, [A(1)]],
      [{ amount: { gte: '999.999999', lt: '1000' } }, [A(2), A(3)]],
      [{ types: ['withdraw'], amount: { gte: '1000' } }, []],
    ];
    for (const [filters, wallets] of cases)
      expect([filters, match([rule('ledger_update', [], filters)], [block()]).map((d) => d.data.address)]).toEqual([filters, wallets]);
    expect(match([rule('ledger_update', [A(3), A(1)])], [block()]).map((d) => d.data.address)).toEqual([A(1), A(3)]);
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
    const r = rule('large_market_order', [], { thresholdUsd: '50000', direction: 'both' });
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

  it('fires at the threshold, not just below it, and filters direction and markets', () => {
    // The ETH order is 49999.999999 USD: just below 50000.
    expect(
      match([rule('large_market_order', [], { thresholdUsd: '49999.999999' })], [block()]).flatMap((d) =>
        (d.data.orders as Array<{ orderId: number }>).map((o) => o.orderId),
      ),
    ).toEqual([555, 557]);
    expect(
      match([rule('large_market_order', [], { thresholdUsd: '49999.9999990001' })], [block()]).flatMap((d) =>
        (d.data.orders as Array<{ orderId: number }>).map((o) => o.orderId),
      ),
    ).toEqual([555]);
    expect(match([rule('large_market_order', [], { thresholdUsd: '50000.00000001' })], [block()])).toEqual([]);
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

describe('price_crossing', () => {
  const tick = (block: number, px: string, time: number) => fills(block, [[A(1), { coin: 'BTC', px, sz: '1', tid: block, time }]], time);

  it('fires above when the previous price was at or below and the new one strictly above; touching does not fire', () => {
    const r = rule('price_crossing', [], { market: 'BTC', threshold: '100000', direction: 'both' });
    const out = match(
      [r],
      [
        tick(1, '100000', T0),
        tick(2, '100000.01', T0 + 1),
        tick(3, '100000.01', T0 + 2),
        tick(4, '100000', T0 + 3),
        tick(5, '99999.99', T0 + 4),
      ],
    );
    expect(out.map((d) => d.data)).toEqual([
      { market: 'BTC', threshold: '100000', direction: 'above', previousPrice: '100000', triggerPrice: '100000.01', eventTime: T0 + 1 },
      // 100000.01 -> 100000 touches the threshold: nothing; 100000 -> 99999.99 crosses it downwards.
      { market: 'BTC', threshold: '100000', direction: 'below', previousPrice: '100000', triggerPrice: '99999.99', eventTime: T0 + 4 },
    ]);
    expect(out[0]!.deliveryId).toBe(sha(r.id, `price_crossing|BTC|2|${T0 + 1}`));
    expect(
      match(
        [rule('price_crossing', [], { market: 'BTC', threshold: '100000', direction: 'above' })],
        [tick(1, '99999', T0), tick(2, '100001', T0 + 1), tick(3, '99999', T0 + 2)],
      ).map((d) => d.data.direction),
    ).toEqual(['above']);
  });

  it('fires every threshold a jump passes over, each once, and none it only reaches', () => {
    const at = (threshold: string, direction: 'above' | 'below' | 'both' = 'both') =>
      rule('price_crossing', [], { market: 'BTC', threshold, direction });
    const rules = [at('110'), at('94.99'), at('100.5', 'below'), at('95'), at('105'), at('100.5', 'above'), at('1000')];
    const out = match(rules, [tick(1, '95', T0), tick(2, '105', T0 + 1), tick(3, '94.99', T0 + 2)]);
    expect(out.map((d) => [d.data.threshold, d.data.direction, d.data.triggerPrice])).toEqual([
      // In rule order. 95 -> 105: 95 (from at) and 100.5 (above) are crossed; 105 is only reached.
      ['95', 'above', '105'],
      ['100.5', 'above', '105'],
      // 105 -> 94.99: 100.5 (below), 95 and 105 are crossed; 94.99 is only reached.
      ['100.5', 'below', '94.99'],
      ['95', 'below', '94.99'],
      ['105', 'below', '94.99'],
    ]);
  });

  it('never compares with a price from before the rule existed, and takes the stored price for the first tick', () => {
    const r = rule('price_crossing', [], { market: 'BTC', threshold: '100' }, T0);
    expect(match([r], [tick(1, '101', T0)], new Map([['BTC', { px: '99', timeMs: T0 - 1 }]]))).toEqual([]);
    expect(match([r], [tick(1, '101', T0 + 1)], new Map([['BTC', { px: '99', timeMs: T0 }]])).map((d) => d.data.previousPrice)).toEqual([
      '99',
    ]);
    expect(
      match([r], [fills(9, [[A(1), { coin: 'ETH', px: '200', sz: '1', tid: 1 }]])], new Map([['ETH', { px: '1', timeMs: T0 }]])),
    ).toEqual([]);
  });
});

describe('state_updated', () => {
  it('fires once per state update for each rule created by then', () => {
    const early = rule('state_updated', [], {}, T0 - 1);
    const late = rule('state_updated', [], {}, T0 + 1);
    expect(matchStateUpdate(new RuleIndex([early, late, rule('ledger_update')]), { height: 42, stateTimeMs: T0 })).toEqual([
      {
        deliveryId: sha(early.id, 'state_updated|42'),
        ruleId: early.id,
        consumerId: 7,
        webhookEndpointId: 9,
        eventType: 'state_updated',
        occurredAtMs: T0,
        data: { height: 42, stateTime: T0 },
      },
    ]);
  });
});
